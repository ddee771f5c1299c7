/**
 * Issue 39 §5 (ASVS 5.0 3.3.3): over https the session and CSRF cookies carry the `__Host-`
 * prefix, so browsers keep them Secure, for the whole site and this host alone; a plain-named
 * cookie, which a sibling subdomain or a plain-http answer could plant, counts for nothing.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_COOKIE, PASSKEY_SIGNIN_COOKIE } from '../../src/server/plugins/session';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '../../src/shared/api/http';
import { lastLink, PASSWORD, uniqueEmail } from './authHelpers';
import { SoftAuthenticator } from './softAuthenticator';
import { createTestApp, type TestApp } from './testApp';

const API = '/exchange/api/web';
const HOST_SESSION = `__Host-${SESSION_COOKIE}`;
const HOST_CSRF = `__Host-${CSRF_COOKIE}`;
const HOST_DEVICE = `__Host-${DEVICE_COOKIE}`;
const HOST_PASSKEY = `__Host-${PASSKEY_SIGNIN_COOKIE}`;

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

/** Signs up and verifies an account in `browser`; returns its email. */
async function newAccount(browser: HttpsBrowser): Promise<string> {
  const email = uniqueEmail('https');
  const signup = await browser.send('POST', `${API}/auth/signup`, {
    email,
    authOrigin: 'Clearing',
  });
  expect(signup.statusCode, signup.body).toBe(200);
  const token = lastLink(t, email, 'verify-email').searchParams.get('access_token');
  const verified = await browser.send('POST', `${API}/auth/verify-email`, {
    token,
    email,
    password: PASSWORD,
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return email;
}

/** A browser over https holding only its CSRF token, plus `cookies` as given. */
async function newBrowser(cookies: Record<string, string> = {}): Promise<HttpsBrowser> {
  const browser = new HttpsBrowser();
  await browser.send('GET', `${API}/config`);
  for (const [name, value] of Object.entries(cookies)) browser.cookies.set(name, value);
  return browser;
}

/** A cookie only the sign-in reads, as it must be over https: Secure, HttpOnly, Path=/, no Domain. */
const SIGNIN_COOKIE = { secure: true, httpOnly: true, sameSite: 'Strict', path: '/' };

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

  it('names the device cookie __Host- too, and a plain-named one counts for nothing', async () => {
    const browser = await newBrowser();
    const email = await newAccount(browser);
    const signin = await browser.send('POST', `${API}/auth/signin`, { email, password: PASSWORD });
    expect(signin.statusCode, signin.body).toBe(200);
    // Verifying the email gave this browser its device cookie; the sign-in knows it, gives none.
    expect(cookieOf(signin, HOST_DEVICE)).toBeUndefined();
    const device = browser.cookies.get(HOST_DEVICE)!;
    expect(device).toBeDefined();
    expect(browser.cookies.has(DEVICE_COOKIE)).toBe(false);

    // A new browser's first sign-in is given one: __Host-, Secure, Path=/, HttpOnly, Strict.
    const other = await newBrowser();
    const first = await other.send('POST', `${API}/auth/signin`, { email, password: PASSWORD });
    expect(first.statusCode, first.body).toBe(200);
    expect(cookieOf(first, HOST_DEVICE)).toMatchObject(SIGNIN_COOKIE);
    expect(cookieOf(first, HOST_DEVICE)?.domain).toBeUndefined();
    expect(cookieOf(first, DEVICE_COOKIE)).toBeUndefined();

    // The account's device cookie under the plain name, as a subdomain could plant it: unknown.
    const planted = await newBrowser({ [DEVICE_COOKIE]: device });
    const plantedSignin = await planted.send('POST', `${API}/auth/signin`, {
      email,
      password: PASSWORD,
    });
    expect(plantedSignin.statusCode, plantedSignin.body).toBe(200);
    expect(cookieOf(plantedSignin, HOST_DEVICE)?.value).not.toBe(device);
    expect(cookieOf(plantedSignin, HOST_DEVICE)).toMatchObject(SIGNIN_COOKIE);
    // Under the __Host- name it is known: no new one.
    const kept = await newBrowser({ [HOST_DEVICE]: device });
    const keptSignin = await kept.send('POST', `${API}/auth/signin`, { email, password: PASSWORD });
    expect(keptSignin.statusCode, keptSignin.body).toBe(200);
    expect(cookieOf(keptSignin, HOST_DEVICE)).toBeUndefined();
  });

  it("names the passkey sign-in's challenge cookie __Host- too, and a plain-named one counts for nothing", async () => {
    const browser = await newBrowser();
    const email = await newAccount(browser);
    expect(
      (await browser.send('POST', `${API}/auth/signin`, { email, password: PASSWORD })).statusCode,
    ).toBe(200);
    const authenticator = new SoftAuthenticator(t.config.publicUrl);
    const options = await browser.send('POST', `${API}/user/passkeys/options`, {
      password: PASSWORD,
    });
    expect(options.statusCode, options.body).toBe(200);
    const added = await browser.send('POST', `${API}/user/passkeys`, {
      name: 'Laptop',
      response: authenticator.register(options.json()),
    });
    expect(added.statusCode, added.body).toBe(200);

    const signer = await newBrowser();
    const step1 = await signer.send('POST', `${API}/auth/signin`, { email, password: PASSWORD });
    expect(step1.json()).toMatchObject({ authStatus: 'TwoFactorRequired' });
    const challenge = cookieOf(step1, HOST_PASSKEY);
    expect(challenge).toMatchObject(SIGNIN_COOKIE);
    expect(challenge?.domain).toBeUndefined();
    expect(cookieOf(step1, PASSKEY_SIGNIN_COOKIE)).toBeUndefined();
    const passkeyOptions = step1.json().passkeyOptions;

    // The challenge's handle under the plain name, in a browser that has none of its own: refused.
    const planted = await newBrowser({ [PASSKEY_SIGNIN_COOKIE]: challenge!.value });
    const stolen = await planted.send('POST', `${API}/auth/signin/passkey`, {
      response: authenticator.authenticate(passkeyOptions),
    });
    expect(stolen.statusCode).toBe(401);

    const step2 = await signer.send('POST', `${API}/auth/signin/passkey`, {
      response: authenticator.authenticate(passkeyOptions),
    });
    expect(step2.statusCode, step2.body).toBe(200);
    expect(step2.json()).toMatchObject({ authStatus: 'AuthComplete' });
    // Spent: the __Host- cookie is cleared where it was set.
    expect(cookieOf(step2, HOST_PASSKEY)).toMatchObject({ value: '', path: '/' });
  });
});
