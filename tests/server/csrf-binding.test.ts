/**
 * Issue 39 §5: the CSRF token is bound to the session (ASVS 5.0 3.5.1; OWASP's signed
 * double-submit cookie). A cookie and header made up together passed the check; so did a token
 * planted in the browser before its owner signed in.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadCsrfKeys } from '../../src/server/auth/csrfKeys';
import type { ServerConfig } from '../../src/server/config';
import { FieldKeyError, newFieldKey } from '../../src/server/fieldEncryption/keyRing';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '../../src/shared/api/http';
import { createVerifiedUser, freshClient, PASSWORD } from './authHelpers';
import { createTestApp, type TestApp } from './testApp';

const API = '/exchange/api/web';
const REFUSED = 'Your session check failed. Reload the page and try again.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** A request with exactly these cookies and this header, from an address of its own. */
const send = (url: string, cookies: Record<string, string>, header?: string, payload?: object) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: `10.99.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
    headers: {
      cookie: Object.entries(cookies)
        .map(([name, value]) => `${name}=${value}`)
        .join('; '),
      ...(header !== undefined ? { [CSRF_HEADER]: header } : {}),
    },
    payload: payload ?? {},
  });

const tokenSet = (response: { cookies: { name: string; value: string }[] }) =>
  response.cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value;

describe('the CSRF token is bound to the session', () => {
  it('refuses a cookie and header made up together, signed out and signed in, and sets a real token instead', async () => {
    const made = send(`${API}/auth/signout`, { [CSRF_COOKIE]: 'made-up' }, 'made-up');
    const signedOut = await made;
    expect(signedOut.statusCode).toBe(403);
    expect(signedOut.json().errorMessage).toBe(REFUSED);
    const fresh = tokenSet(signedOut);
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe('made-up');

    const user = await createVerifiedUser(t);
    const browser = freshClient(t.app);
    expect(
      (await browser.post(`${API}/auth/signin`, { email: user.email, password: PASSWORD }))
        .statusCode,
    ).toBe(200);
    const session = browser.cookies.get(SESSION_COOKIE)!;
    const forged = await send(
      `${API}/user/2fa`,
      { [SESSION_COOKIE]: session, [CSRF_COOKIE]: 'forged' },
      'forged',
      { password: PASSWORD },
    );
    expect(forged.statusCode).toBe(403);
    expect(forged.json().errorMessage).toBe(REFUSED);
    // The browser's own token, given at sign-in, passes.
    const own = await browser.post(`${API}/user/2fa`, { password: PASSWORD });
    expect(own.statusCode, own.body).not.toBe(403);
  });

  it('a token of the signed-out browser (one an attacker planted) is renewed at sign-in and fails with the session', async () => {
    const user = await createVerifiedUser(t);
    const browser = freshClient(t.app);
    await browser.get(`${API}/config`);
    const planted = browser.cookies.get(CSRF_COOKIE)!;
    const signin = await browser.post(`${API}/auth/signin`, {
      email: user.email,
      password: PASSWORD,
    });
    expect(signin.statusCode).toBe(200);
    const renewed = tokenSet(signin);
    expect(renewed).toBeTruthy();
    expect(renewed).not.toBe(planted);
    const session = browser.cookies.get(SESSION_COOKIE)!;
    const withPlanted = await send(
      `${API}/user/2fa`,
      { [SESSION_COOKIE]: session, [CSRF_COOKIE]: planted },
      planted,
      { password: PASSWORD },
    );
    expect(withPlanted.statusCode).toBe(403);
    // Another browser's session token does not fit this session either.
    const other = freshClient(t.app);
    expect(
      (await other.post(`${API}/auth/signin`, { email: user.email, password: PASSWORD }))
        .statusCode,
    ).toBe(200);
    const crossed = await send(
      `${API}/user/2fa`,
      { [SESSION_COOKIE]: session, [CSRF_COOKIE]: other.cookies.get(CSRF_COOKIE)! },
      other.cookies.get(CSRF_COOKIE)!,
      { password: PASSWORD },
    );
    expect(crossed.statusCode).toBe(403);
    // Signing out gives a token for the signed-out browser, and that one passes.
    expect((await browser.post(`${API}/auth/signout`)).statusCode).toBe(200);
    expect(browser.cookies.get(CSRF_COOKIE)).not.toBe(renewed);
    expect((await browser.post(`${API}/auth/signout`)).statusCode).toBe(200);
  });
});

describe('the keys CSRF tokens are bound under (CSRF_KEYS, apart from the field keys)', () => {
  /** Another instance on the same database, with `overrides` to the configuration. */
  async function instance(overrides: Partial<ServerConfig>): Promise<FastifyInstance> {
    const app = await buildApp({
      config: { ...t.config, ...overrides },
      pool: t.pool,
      mailer: t.mailer,
      logger: false,
    });
    await app.ready();
    return app;
  }

  it("an open page's token still passes after a field-encryption key is removed, and through a CSRF key rotation", async () => {
    const user = await createVerifiedUser(t);
    const browser = freshClient(t.app);
    expect(
      (await browser.post(`${API}/auth/signin`, { email: user.email, password: PASSWORD }))
        .statusCode,
    ).toBe(200);
    const session = browser.cookies.get(SESSION_COOKIE)!;
    const token = browser.cookies.get(CSRF_COOKIE)!;
    const post = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: `${API}/user/2fa`,
        headers: {
          cookie: `${SESSION_COOKIE}=${session}; ${CSRF_COOKIE}=${token}`,
          [CSRF_HEADER]: token,
        },
        payload: { password: PASSWORD },
      });
    // The field key the token was minted beside is gone (rotated to a new one and removed).
    const newFieldKeyOnly = await instance({ fieldEncryptionKeys: newFieldKey('k-new') });
    // A new CSRF key first, the old one kept for the pages still open.
    const csrfRotated = await instance({
      csrfKeys: `${newFieldKey('c-new')},${t.config.csrfKeys}`,
    });
    // The CSRF key itself removed: now, and only now, the token is refused.
    const csrfReplaced = await instance({ csrfKeys: newFieldKey('c-other') });
    try {
      const afterFieldKey = await post(newFieldKeyOnly);
      expect(afterFieldKey.statusCode, afterFieldKey.body).not.toBe(403);
      expect(tokenSet(afterFieldKey)).toBeUndefined(); // still bound: not replaced
      const afterRotation = await post(csrfRotated);
      expect(afterRotation.statusCode, afterRotation.body).not.toBe(403);
      const replaced = await post(csrfReplaced);
      expect(replaced.statusCode).toBe(403);
      expect(replaced.json().errorMessage).toBe(REFUSED);
    } finally {
      await Promise.all([newFieldKeyOnly, csrfRotated, csrfReplaced].map((app) => app.close()));
    }
  });

  it('production refuses to start without CSRF_KEYS, in one sentence', () => {
    expect(() =>
      loadCsrfKeys({ csrfKeys: undefined, production: true, dataDir: '/nonexistent' }),
    ).toThrow(
      new FieldKeyError(
        'CSRF_KEYS is not set: production needs the key that CSRF tokens are checked with (see "CSRF keys" in docs/operators.md).',
      ),
    );
  });
});
