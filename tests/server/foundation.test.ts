import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestApp } from './testApp';

describe('server foundation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers config with the captcha site key (empty in development)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/exchange/api/web/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ recaptcha_site_key: '' });
  });

  it('sets a CSRF cookie and refuses a state-changing call without the matching header', async () => {
    const client = new TestClient(t.app);
    const refused = await client.post('/exchange/api/web/auth/signout', {}, { csrf: false });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errorMessage).toMatch(/session check failed/);
  });

  it('refuses a cross-site Origin even with a token', async () => {
    const client = new TestClient(t.app);
    const response = await client.request('POST', '/exchange/api/web/auth/signout', {
      json: {},
      headers: { origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/exchange/api/web/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ errorMessage: 'Not found.' });
  });

  it('sends security headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/exchange/api/web/config' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).not.toContain('unsafe-eval');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('has migrated the database', async () => {
    const result = await t.pool.query('select count(*)::int as n from schema_migrations');
    expect(result.rows[0].n).toBeGreaterThan(0);
  });
});
