/**
 * Issue 39 §5 (ASVS 5.0 3.3.3): over https the session and CSRF cookies carry the `__Host-`
 * prefix, so browsers keep them Secure, for the whole site and this host alone; a plain-named
 * cookie, which a sibling subdomain or a plain-http answer could plant, counts for nothing.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '../../src/shared/api/http';
import { lastLink, PASSWORD, uniqueEmail } from './authHelpers';
import { createTestApp, type TestApp } from './testApp';

const API = '/exchange/api/web';
const HOST_SESSION = `__Host-${SESSION_COOKIE}`;
const HOST_CSRF = `__Host-${CSRF_COOKIE}`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'https://portal.northstar.example' });
});
afterAll(async () => t.close());

/** A browser over https: keeps the cookies it is given, echoes the `__Host-` CSRF token. */
class HttpsBrowser {
  readonly cookies = new Map<string, string>();
  readonly address = `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

  async send(method: 'GET' | 'POST', url: string, payload?: object) {
    const response = await t.app.inject({
      method,
      url,
      remoteAddress: this.address,
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(method === 'POST' ? { [CSRF_HEADER]: this.cookies.get(HOST_CSRF) ?? '' } : {}),
      },
      ...(payload ? { payload } : {}),
    });
    await t.app.backgroundJobs.idle();
    for (const cookie of response.cookies) {
      if (cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }
}

const cookieOf = (response: LightMyRequestResponse, name: string) =>
  response.cookies.find((cookie) => cookie.name === name);

describe('__Host- cookies over https', () => {
  it('sets the session and CSRF cookies as __Host- ones: Secure, Path=/, no Domain', async () => {
    const browser = new HttpsBrowser();
    const first = await browser.send('GET', `${API}/config`);
    const csrf = cookieOf(first, HOST_CSRF);
    expect(csrf).toMatchObject({ secure: true, path: '/' });
    expect(csrf?.domain).toBeUndefined();
    expect(cookieOf(first, CSRF_COOKIE)).toBeUndefined();

    const email = uniqueEmail('https');
    expect(
      (await browser.send('POST', `${API}/auth/signup`, { email, authOrigin: 'Clearing' }))
        .statusCode,
    ).toBe(200);
    const token = lastLink(t, email, 'verify-email').searchParams.get('access_token');
    const verified = await browser.send('POST', `${API}/auth/verify-email`, {
      token,
      email,
      password: PASSWORD,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const signin = await browser.send('POST', `${API}/auth/signin`, { email, password: PASSWORD });
    expect(signin.statusCode, signin.body).toBe(200);
    const session = cookieOf(signin, HOST_SESSION);
    expect(session).toMatchObject({ secure: true, path: '/', httpOnly: true });
    expect(session?.domain).toBeUndefined();
    expect(cookieOf(signin, SESSION_COOKIE)).toBeUndefined();
    expect(cookieOf(signin, HOST_CSRF)).toMatchObject({ secure: true, path: '/' });

    expect((await browser.send('GET', `${API}/user`)).statusCode).toBe(200);
    // The same values under the plain names, as a subdomain could plant them, count for nothing.
    const planted = await t.app.inject({
      method: 'GET',
      url: `${API}/user`,
      headers: { cookie: `${SESSION_COOKIE}=${browser.cookies.get(HOST_SESSION)}` },
    });
    expect(planted.statusCode).toBe(401);
    const plantedCsrf = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/signout`,
      headers: {
        cookie: `${HOST_SESSION}=${browser.cookies.get(HOST_SESSION)}; ${CSRF_COOKIE}=${browser.cookies.get(HOST_CSRF)}`,
        [CSRF_HEADER]: browser.cookies.get(HOST_CSRF)!,
      },
    });
    expect(plantedCsrf.statusCode).toBe(403);
    // Signing out clears the __Host- session cookie.
    const signout = await browser.send('POST', `${API}/auth/signout`);
    expect(signout.statusCode).toBe(200);
    expect(browser.cookies.has(HOST_SESSION)).toBe(false);
  });
});
