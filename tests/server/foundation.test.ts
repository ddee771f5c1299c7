import fs from 'node:fs';
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
    expect(response.json()).toEqual({ errorMessage: 'Not found.', code: 'not_found' });
  });

  it('sends security headers: the pages’ policy on pages, the strictest on JSON, none on a 304', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/exchange/api/web/config' });
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    const refused = await t.app.inject({ method: 'GET', url: '/exchange/api/web/nope' });
    expect(refused.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    // A page's address (without a built web app here, a plain-text note; the console's pages
    // are checked in staff-console.test.ts): anything but JSON has the pages' policy.
    const page = await t.app.inject({ method: 'GET', url: '/clearing/signin' });
    expect(page.headers['content-type']).toMatch(/^text\//);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-eval');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    // A 304 refreshes what the browser stored with the 200 (RFC 9110 §15.4.5): its validators
    // and caching, nothing else.
    const listing = await t.app.inject({ method: 'GET', url: '/clearing/api/web/disclosures' });
    const reload = await t.app.inject({
      method: 'GET',
      url: '/clearing/api/web/disclosures',
      headers: { 'if-none-match': listing.headers.etag as string },
    });
    expect(reload.statusCode).toBe(304);
    expect(reload.headers.etag).toBe(listing.headers.etag);
    expect(reload.headers['cache-control']).toBe('public, max-age=60');
    expect(reload.headers['content-security-policy']).toBeUndefined();
  });

  it('has applied every migration file, and the tables they create exist', async () => {
    const files = fs
      .readdirSync('src/server/db/migrations')
      .filter((file) => file.endsWith('.sql'))
      .sort();
    const applied = await t.pool.query<{ name: string }>(
      'select name from schema_migrations order by name',
    );
    expect(applied.rows.map((row) => row.name)).toEqual(files);
    // Each `create table` of the migrations is a table of this database.
    const created = files.flatMap((file) =>
      [
        ...fs
          .readFileSync(`src/server/db/migrations/${file}`, 'utf8')
          .matchAll(/create table (?:if not exists )?(\w+)/gi),
      ].map((match) => match[1]!.toLowerCase()),
    );
    const tables = await t.pool.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public'`,
    );
    expect(created.length).toBeGreaterThan(5);
    expect(tables.rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(created));
  });
});
