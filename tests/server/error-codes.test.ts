/**
 * Every refusal carries a machine-readable `code` beside its `errorMessage` (issue 40 §3), one of
 * API_ERROR_CODES, which the document's Error component lists; a schema failure names each field
 * by JSON pointer.
 */
import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES } from '../../src/shared/api/http';
import { testAppForBlock } from './testApp';
import { freshClient, PASSWORD, signedIn } from './authHelpers';

const web = '/exchange/api/web';

describe('error codes', () => {
  const t = testAppForBlock();

  it('the document lists every code on its Error component, and docs/api.md names each', async () => {
    const document = t.app.swagger() as unknown as {
      components: { schemas: Record<string, { properties: { code: { enum: string[] } } }> };
    };
    const listed = document.components.schemas.Error?.properties.code.enum;
    expect(listed).toEqual(Object.keys(API_ERROR_CODES));
    const { readFileSync } = await import('node:fs');
    const guide = readFileSync('docs/api.md', 'utf8');
    for (const code of Object.keys(API_ERROR_CODES)) {
      expect(guide, `docs/api.md names ${code}`).toMatch(new RegExp(`^\\| \`${code}\` `, 'm'));
    }
  });

  it('a sample of refusals each answer the code that says why', async () => {
    const stranger = freshClient(t.app);
    const user = await signedIn(t);
    const seen: [string, number, unknown][] = [];
    const expectRefusal = async (
      response: Promise<{ statusCode: number; json: () => unknown }>,
      status: number,
      code: keyof typeof API_ERROR_CODES,
    ) => {
      const answer = await response;
      const body = answer.json() as { errorMessage?: unknown; code?: unknown };
      seen.push([code, answer.statusCode, body.code]);
      expect(answer.statusCode, code).toBe(status);
      expect(typeof body.errorMessage).toBe('string');
      expect(body.code).toBe(code);
      return body;
    };
    await expectRefusal(stranger.get(`${web}/user`), 401, 'unauthorized');
    await expectRefusal(user.client.get('/exchange/api/admin/users'), 403, 'forbidden');
    await expectRefusal(
      user.client.post(`${web}/user/email`, { email: 'a@example.com' }, { csrf: false }),
      403,
      'csrf_missing',
    );
    await expectRefusal(
      user.client.request('POST', `${web}/user/email`, {
        json: {},
        headers: { origin: 'https://elsewhere.example' },
      }),
      403,
      'cross_site',
    );
    await expectRefusal(stranger.get('/exchange/api/web/no-such-call'), 404, 'not_found');
    await expectRefusal(
      stranger.post(`${web}/auth/signin`, { email: user.email, password: `${PASSWORD}x` }),
      401,
      'invalid_credentials',
    );
    // A body the route's schema refuses: each field by JSON pointer.
    const invalid = (await expectRefusal(
      stranger.post(`${web}/auth/signin`, { email: 'a@example.com', extra: 1 }),
      400,
      'validation_failed',
    )) as { errors?: Record<string, string> };
    expect(Object.keys(invalid.errors ?? {})).toContain('/password');
    await expectRefusal(
      user.client.request('PUT', `${web}/applications/individual`, {
        payload: '{not json',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_request',
    );
    for (const [, , code] of seen) expect(Object.keys(API_ERROR_CODES)).toContain(code);
  });
});
