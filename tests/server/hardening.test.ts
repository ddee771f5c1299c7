/**
 * What an adversarial test broke (issue 12), each kept broken-proof: CSRF decided on the matched
 * route, proxy trust only for configured addresses, and bad input answered 4xx with a message.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/server/auth/passwords';
import { RATE_LIMITS } from '../../src/server/auth/routeHelpers';
import { readConfig } from '../../src/server/config';
import { CSRF_EXEMPT_ROUTES } from '../../src/server/plugins/csrf';
import { hashToken } from '../../src/server/db/opaqueTokens';
import { CSRF_COOKIE, SESSION_COOKIE } from '../../src/shared/api/http';
import {
  createVerifiedUser,
  freshClient,
  multipart,
  pngBytes,
  postForm,
  signedIn,
  uniqueEmail,
} from './authHelpers';
import { postForm as consolePost, registeredCustomer, signedInStaff } from './adminHelpers';
import { createTestApp, type TestApp } from './testApp';

const API = '/exchange/api/web';

/** Sends raw bytes to a listening server and answers the raw response text. */
function rawRequest(port: number, text: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) =>
      chunks.length ? resolve(Buffer.concat(chunks).toString()) : reject(error),
    );
    socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
    socket.end(text);
  });
}

describe('CSRF on every state-changing route, decided on the matched route', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => t.close());

  const cookieHeader = (cookies: Map<string, string>) =>
    [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');

  it('refuses a percent-encoded path without the token, and the session survives', async () => {
    const { client } = await signedIn(t);
    const signout = await t.app.inject({
      method: 'POST',
      url: '/exchange/%61pi/web/auth/signout',
      headers: { cookie: cookieHeader(client.cookies), 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(signout.statusCode).toBe(403);
    expect(signout.json().errorMessage).toMatch(/session check failed/);
    const settings = multipart([{ name: 'tag', value: 'mark_tutorial_complete' }]);
    const form = await t.app.inject({
      method: 'POST',
      url: '/exchange/%61pi/web/user/settings',
      headers: { ...settings.headers, cookie: cookieHeader(client.cookies) },
      payload: settings.payload,
    });
    expect(form.statusCode).toBe(403);
    expect((await client.get(`${API}/user`)).statusCode).toBe(200);
  });

  it('refuses an absolute-form request line without the token', async () => {
    const { client } = await signedIn(t);
    const response = await rawRequest(
      port,
      `POST http://127.0.0.1:${port}/exchange/api/web/auth/signout HTTP/1.1\r\n` +
        `Host: 127.0.0.1:${port}\r\nCookie: ${cookieHeader(client.cookies)}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(response).toMatch(/^HTTP\/1.1 403/);
    expect(response).toContain('"errorMessage"');
    expect((await client.get(`${API}/user`)).statusCode).toBe(200);
  });

  it('protects every state-changing route of the app unless the exempt list names it', async () => {
    const { client } = await signedIn(t);
    const exempt = new Set(CSRF_EXEMPT_ROUTES.map((route) => route.url));
    const routes = t.app.routeTable.filter(
      (route) => !['GET', 'HEAD', 'OPTIONS'].includes(route.method) && !exempt.has(route.url),
    );
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) {
      const url = route.url.replace(/:[A-Za-z]+/g, 'x').replace(/\*$/, 'x');
      const response = await t.app.inject({
        method: route.method as 'POST',
        url,
        headers: { cookie: cookieHeader(client.cookies), 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(response.json().errorMessage, `${route.method} ${route.url}`).toBeTruthy();
    }
    // Each exemption is a staff-console form route, which checks its own form token.
    for (const route of CSRF_EXEMPT_ROUTES) expect(route.url).toMatch(/^\/clearing\/admin\//);
  });

  it('sets no CSRF cookie on answers shared caches may keep, and still sets it on the pages and the API', async () => {
    const fresh = (url: string) => t.app.inject({ method: 'GET', url });
    const setsToken = (response: Awaited<ReturnType<typeof fresh>>) =>
      [response.headers['set-cookie'] ?? []].flat().some((c) => c.startsWith(`${CSRF_COOKIE}=`));
    for (const url of ['/clearing/api/web/disclosures', '/favicon.svg']) {
      const response = await fresh(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toMatch(/public/);
      expect(setsToken(response), url).toBe(false);
    }
    // A visitor's first page and first API call still get the token the app echoes back.
    expect(setsToken(await fresh('/exchange/api/web/config'))).toBe(true);
    // Only a safe method may be marked: a marked POST would skip the check.
    const app = (await import('fastify')).default();
    const { csrfPlugin } = await import('../../src/server/plugins/csrf');
    await app.register((await import('@fastify/cookie')).default);
    await app.register(csrfPlugin, { secureCookies: false });
    expect(() => app.post('/x', { config: { sharedCache: true } }, async () => ({}))).toThrow(
      /only GET\/HEAD routes may be marked sharedCache/,
    );
    await app.close();
  });
});

/** A CSRF token the app hands a signed-out browser (tokens are bound to the session: csrf.ts). */
async function signedOutToken(t: TestApp): Promise<string> {
  const response = await t.app.inject({ method: 'GET', url: `${API}/config` });
  return response.cookies.find((cookie) => cookie.name === CSRF_COOKIE)!.value;
}

describe('proxy trust', () => {
  const signupsFrom = async (t: TestApp, forwardedFor: (n: number) => string) => {
    const statuses: number[] = [];
    const token = await signedOutToken(t);
    for (let n = 0; n <= RATE_LIMITS.signup; n++) {
      const response = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/signup`,
        remoteAddress: '192.0.2.10',
        headers: {
          cookie: `${CSRF_COOKIE}=${token}`,
          'x-csrf-token': token,
          'x-forwarded-for': forwardedFor(n),
        },
        payload: { email: uniqueEmail('proxy'), authOrigin: 'Clearing' },
      });
      statuses.push(response.statusCode);
    }
    return statuses;
  };

  it('in production trusts no X-Forwarded-For unless TRUST_PROXY names the peer', async () => {
    const production = await createTestApp({ production: true });
    try {
      // A client writing a new address per request is still one client: the limit holds.
      const statuses = await signupsFrom(production, (n) => `198.51.100.${n + 1}`);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await production.close();
    }
    const behindProxy = await createTestApp({ production: true, trustProxy: ['192.0.2.0/24'] });
    try {
      // Behind the configured proxy, the forwarded address is the client's.
      const statuses = await signupsFrom(behindProxy, (n) => `198.51.100.${n + 1}`);
      expect(statuses.every((status) => status === 200)).toBe(true);
    } finally {
      await behindProxy.close();
    }
  });
});

describe('bad input answers 4xx with a message, never 500', () => {
  let t: TestApp;
  let port: number;
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
    staff = await signedInStaff(t);
  });
  afterAll(async () => t.close());

  const refused = (response: { statusCode: number; json(): { errorMessage?: string } }) => {
    expect(response.statusCode).toBe(400);
    expect(response.json().errorMessage).toMatch(/character that is not allowed/);
  };

  it('refuses NUL bytes in path parameters and query strings', async () => {
    refused(await staff.client.get(`${API}/customer/a%00b/statement`));
    refused(await staff.client.get('/exchange/api/admin/users?search=a%00b'));
    refused(await staff.client.get('/exchange/api/admin/statements/NCF%00'));
  });

  it('refuses NUL bytes and lone surrogates in JSON bodies (admin rejection reason)', async () => {
    const customer = await registeredCustomer(t);
    for (const reason of ['bad\u0000reason', 'bad\ud800reason']) {
      refused(
        await staff.client.post('/exchange/api/admin/onboarding/kyc-approval', {
          registrationId: customer.registrationId,
          approved: false,
          reason,
        }),
      );
    }
    const row = await t.pool.query('select status from registrations where id = $1', [
      customer.registrationId,
    ]);
    expect(row.rows[0].status).toBe('submitted');
    const console = await consolePost(
      staff.client,
      `/clearing/admin/registrations/${customer.registrationId}/decision`,
      { decision: 'reject', reason: 'bad\u0000reason' },
    );
    expect(console.statusCode).toBe(400);
    expect(console.body).toContain('character that is not allowed');
  });

  it('refuses NUL bytes in multipart names (registration/user, modify_kyc)', async () => {
    const { client } = await signedIn(t);
    const photo = {
      name: 'photoId',
      filename: 'id.png',
      contentType: 'image/png',
      data: await pngBytes(),
    };
    const response = await postForm(client, `${API}/registration/user`, [
      { name: 'firstName', value: 'Gr\u0000ace' },
      { name: 'lastName', value: 'Hopper' },
      { name: 'phoneNumber', value: '+12125550142' },
      photo,
    ]);
    refused(response);
    const kyc = await postForm(client, `${API}/user/settings`, [
      { name: 'tag', value: 'modify_kyc' },
      { name: 'firstName', value: 'A\u0000' },
    ]);
    refused(kyc);
  });

  it('refuses form data sent to a route that takes none: 415 with a sentence, nothing read', async () => {
    // Only the routes that take form data read multipart (storage/multipartForm.ts).
    const customer = await registeredCustomer(t);
    const response = await postForm(staff.client, '/exchange/api/admin/onboarding/kyc-approval', [
      { name: 'registrationId', value: customer.registrationId },
      { name: 'approved', value: 'true' },
    ]);
    expect(response.statusCode).toBe(415);
    expect(response.json().errorMessage).toMatch(/Unsupported Media Type/);
    const row = await t.pool.query('select status from registrations where id = $1', [
      customer.registrationId,
    ]);
    expect(row.rows[0].status).toBe('submitted');
  });

  it('refuses NUL bytes and lone surrogates in registration answers', async () => {
    for (const employerName of ['Acme\u0000Corp', 'Acme\ud800Corp']) {
      await expect(registeredCustomer(t, { employerName })).rejects.toThrow(
        /registration failed: .*could not be read/,
      );
    }
  });

  it('refuses a multipart part without a name, signed out, on invite/accept', async () => {
    const boundary = 'nameless';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; filename="a.png"\r\n` +
      `Content-Type: image/png\r\n\r\nxx\r\n--${boundary}--\r\n`;
    const response = await freshClient(t.app).request('POST', `${API}/auth/invite/accept`, {
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errorMessage).toBe('A form part has no name.');
  });

  it('refuses a limit beyond any page and a cursor no list made', async () => {
    for (const query of ['limit=99999999999999999999', 'cursor=not-a-cursor', 'limit=0']) {
      const response = await staff.client.get(`/exchange/api/admin/users?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().errorMessage).toBeTruthy();
    }
  });

  it('answers an undecodable URL and oversize headers with an errorMessage', async () => {
    const badUrl = await t.app.inject({
      method: 'GET',
      url: `${API}/customer/%ED%A0%80/statement`,
    });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json().errorMessage).toBe('The address is not valid.');
    const huge = await rawRequest(
      port,
      `GET ${API}/config HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge).toMatch(/^HTTP\/1.1 431/);
    expect(huge).toContain('"errorMessage":"The request headers are too large."');
  });
});

describe('sign-up and reset requests take the same path for known and unknown emails', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  /** Database calls and mails made by one request before its answer, with background work held. */
  async function workBeforeAnswer(url: string, email: string) {
    const token = await signedOutToken(t);
    let calls = 0;
    const pool = t.pool as unknown as Record<'query' | 'connect', (...args: unknown[]) => unknown>;
    const query = pool.query;
    const connect = pool.connect;
    pool.query = (...args) => (calls++, query.apply(t.pool, args));
    pool.connect = (...args) => (calls++, connect.apply(t.pool, args));
    const mailsBefore = t.mailer.outbox().length;
    t.app.backgroundJobs.pause();
    try {
      const response = await t.app.inject({
        method: 'POST',
        url,
        remoteAddress: `10.250.0.${Math.floor(Math.random() * 250) + 1}`,
        headers: { cookie: `${CSRF_COOKIE}=${token}`, 'x-csrf-token': token },
        payload: { email, authOrigin: 'Clearing' },
      });
      expect(response.statusCode).toBe(200);
      return { calls, mails: t.mailer.outbox().length - mailsBefore, body: response.body };
    } finally {
      pool.query = query;
      pool.connect = connect;
      t.app.backgroundJobs.resume();
      await t.app.backgroundJobs.idle();
    }
  }

  it('does the same work before answering, then mails the right message', async () => {
    const verified = await createVerifiedUser(t);
    const unverified = uniqueEmail('unverified');
    await freshClient(t.app).post(`${API}/auth/signup`, {
      email: unverified,
      authOrigin: 'Clearing',
    });
    for (const url of [`${API}/auth/signup`, `${API}/auth/password/reset/request`]) {
      const work = [];
      for (const email of [verified.email, unverified, uniqueEmail('unknown')]) {
        work.push(await workBeforeAnswer(url, email));
      }
      expect(work[1], url).toEqual(work[0]);
      expect(work[2], url).toEqual(work[0]);
      expect(work[0]!.mails, url).toBe(0);
    }
    const to = (email: string) => t.mailer.outbox().filter((mail) => mail.to === email);
    expect(to(verified.email).map((mail) => mail.subject)).toEqual([
      'Verify your email for Northstar Clearing',
      'You already have a Northstar Clearing account',
      'Reset your Northstar Clearing password',
    ]);
  });
});

describe('passwords and session lifetimes (ASVS 6.2, 7.3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('hashes with scrypt N=2^17 r=8 p=1 by default, salted, never the password itself', async () => {
    expect(readConfig({}).passwordCost).toBe(17);
    const first = await hashPassword('Secret-Pass-1');
    const second = await hashPassword('Secret-Pass-1');
    expect(first).toMatch(/^scrypt\$17\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(second).not.toBe(first);
    expect(first).not.toContain('Secret-Pass-1');
    expect(await verifyPassword('Secret-Pass-1', first)).toBe(true);
    expect(await verifyPassword('Secret-Pass-2', first)).toBe(false);
  });

  it('keeps the session in an opaque HttpOnly SameSite cookie whose token is stored only hashed', async () => {
    const user = await createVerifiedUser(t);
    const response = await freshClient(t.app).post(`${API}/auth/signin`, {
      email: user.email,
      password: user.password,
    });
    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.value).toMatch(/^[\w-]{43}$/);
    const stored = await t.pool.query<{ id_hash: string }>(
      'select id_hash from sessions where user_id = $1',
      [user.id],
    );
    expect(stored.rows.map((row) => row.id_hash)).toEqual([hashToken(cookie.value)]);
  });

  it('ends a session after 30 idle minutes and 12 hours after sign-in', async () => {
    const idle = await signedIn(t);
    await t.pool.query(
      `update sessions set last_seen_at = now() - interval '31 minutes' where user_id = $1`,
      [idle.id],
    );
    expect((await idle.client.get(`${API}/user`)).statusCode).toBe(401);
    const old = await signedIn(t);
    await t.pool.query(
      `update sessions set expires_at = now() - interval '1 second' where user_id = $1`,
      [old.id],
    );
    expect((await old.client.get(`${API}/user`)).statusCode).toBe(401);
    const fresh = await signedIn(t);
    const lifetime = await t.pool.query<{ hours: number }>(
      `select extract(epoch from expires_at - created_at) / 3600 as hours from sessions where user_id = $1`,
      [fresh.id],
    );
    expect(Math.round(Number(lifetime.rows[0]!.hours))).toBe(12);
    await t.pool.query(
      `update sessions set last_seen_at = now() - interval '29 minutes' where user_id = $1`,
      [fresh.id],
    );
    expect((await fresh.client.get(`${API}/user`)).statusCode).toBe(200);
  });
});
