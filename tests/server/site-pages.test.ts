import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firm } from '../../src/shared/config/firm';
import { SAMPLE_NOTICE } from '../../src/server/samplePages';
import { createTestApp, type TestApp } from './testApp';

describe('the firm’s outside links and HSTS', () => {
  let t: TestApp;
  let https: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    https = await createTestApp({ publicUrl: 'https://portal.northstar.example' });
  });
  afterAll(async () => Promise.all([t.close(), https.close()]));

  const named = ['products', 'about', 'docs', 'help', 'privacyPolicy', 'termsOfUse'] as const;

  it.each(named)('answers %s with a sample page marked as such, not JSON', async (key) => {
    const { href, label } = firm.siteLinks[key];
    for (const url of [href, href.endsWith('/') ? href.slice(0, -1) : `${href}/`]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain(SAMPLE_NOTICE);
      expect(response.body).toContain(`<h1>${label}</h1>`);
      expect(response.body).toContain('href="/clearing"');
    }
  });

  it('serves every local link of the firm’s configuration (the footer’s too)', async () => {
    for (const { href } of Object.values(firm.siteLinks)) {
      const response = await t.app.inject({ method: 'GET', url: href });
      expect(response.statusCode, href).toBe(200);
    }
    // Unknown paths stay a 404, and the API's unknown paths stay JSON.
    expect((await t.app.inject({ method: 'GET', url: '/careers' })).statusCode).toBe(404);
    const api = await t.app.inject({ method: 'GET', url: '/exchange/api/web/about' });
    expect(api.json()).toEqual({ errorMessage: 'Not found.', code: 'not_found' });
  });

  it('sends Strict-Transport-Security only when PUBLIC_URL is https', async () => {
    for (const url of ['/exchange/api/web/config', '/about', '/exchange/api/web/nope']) {
      const plain = await t.app.inject({ method: 'GET', url });
      expect(plain.headers['strict-transport-security'], url).toBeUndefined();
      const secure = await https.app.inject({ method: 'GET', url });
      expect(secure.headers['strict-transport-security'], url).toBe(
        'max-age=31536000; includeSubDomains',
      );
    }
  });
});
