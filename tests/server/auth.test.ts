import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/server/auth/totp';
import { SESSION_COOKIE } from '../../src/shared/api/http';
import {
  createVerifiedUser,
  enableTwoFactor,
  freshClient,
  lastLink,
  PASSWORD,
  signedIn,
  uniqueEmail,
} from './authHelpers';
import { createTestApp, type TestApp } from './testApp';

const API = '/exchange/api/web';

describe('auth calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const auditCount = async (action: string, userId?: string) => {
    const result = await t.pool.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = $1 and ($2::uuid is null or actor_user_id = $2)`,
      [action, userId ?? null],
    );
    return result.rows[0]!.n;
  };

  describe('sign-up', () => {
    it('creates an unverified user and mails a verify link with email and token', async () => {
      const email = uniqueEmail();
      const response = await freshClient(t.app).post(`${API}/auth/signup`, {
        email,
        authOrigin: 'Clearing',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({});
      const link = lastLink(t, email, 'verify-email');
      expect(`${link.origin}${link.pathname}`).toBe(
        `${t.config.publicUrl}/clearing/user/verify-email`,
      );
      expect(link.searchParams.get('email')).toBe(email);
      const token = link.searchParams.get('access_token')!;
      expect(token.length).toBeGreaterThan(30);
      const row = await t.pool.query(
        `select u.email_verified_at, u.password_hash, a.token_hash, a.expires_at - now() as ttl
           from users u join auth_tokens a on a.user_id = u.id where u.email = $1`,
        [email],
      );
      expect(row.rows[0].email_verified_at).toBeNull();
      expect(row.rows[0].password_hash).toBeNull();
      expect(row.rows[0].token_hash).not.toContain(token); // stored hashed
      expect(row.rows[0].ttl.hours).toBe(23);
    });

    it('answers known and unknown emails the same way; a verified user gets an account-exists mail', async () => {
      const known = await createVerifiedUser(t);
      const unknown = uniqueEmail();
      const a = await freshClient(t.app).post(`${API}/auth/signup`, {
        email: known.email,
        authOrigin: 'Clearing',
      });
      const b = await freshClient(t.app).post(`${API}/auth/signup`, {
        email: unknown,
        authOrigin: 'Clearing',
      });
      expect([a.statusCode, a.body]).toEqual([b.statusCode, b.body]);
      const mail = t.mailer
        .outbox()
        .filter((m) => m.to === known.email)
        .pop()!;
      expect(mail.subject).toMatch(/already have/);
      expect(mail.text).toMatch(/Forgot Password/);
      expect(mail.links.some((l) => l.includes('access_token'))).toBe(false);
    });

    it('sends a fresh link to a known unverified email, and the old link stops working', async () => {
      const email = uniqueEmail();
      const client = freshClient(t.app);
      await client.post(`${API}/auth/signup`, { email, authOrigin: 'Clearing' });
      const first = lastLink(t, email, 'verify-email').searchParams.get('access_token');
      await client.post(`${API}/auth/signup`, { email, authOrigin: 'Clearing' });
      const second = lastLink(t, email, 'verify-email').searchParams.get('access_token');
      expect(second).not.toBe(first);
      const old = await client.post(`${API}/auth/verify-email`, {
        token: first,
        email,
        password: PASSWORD,
      });
      expect(old.statusCode).toBe(400);
      const users = await t.pool.query('select count(*)::int as n from users where email = $1', [
        email,
      ]);
      expect(users.rows[0].n).toBe(1);
    });

    it('refuses bad input with 400 and a message, never 500', async () => {
      const client = freshClient(t.app);
      const cases: unknown[] = [
        { email: 'not-an-email', authOrigin: 'Clearing' },
        { email: { $ne: 1 }, authOrigin: 'Clearing' },
        { authOrigin: 'Clearing' },
        { email: 'a@b.example', authOrigin: 'Exchange' },
      ];
      for (const body of cases) {
        const response = await client.post(`${API}/auth/signup`, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().errorMessage).toBeTruthy();
      }
      const invalid = await client.post(`${API}/auth/signup`, {
        email: 'not-an-email',
        authOrigin: 'Clearing',
      });
      expect(invalid.json()).toEqual({
        errorMessage: 'Invalid email',
        code: 'validation_failed',
        errors: { email: 'Invalid email' },
      });
    });

    it('refuses malformed JSON and oversize bodies with 4xx', async () => {
      const client = freshClient(t.app);
      const malformed = await client.request('POST', `${API}/auth/signup`, {
        payload: '{"email":',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().errorMessage).toBeTruthy();
      const huge = await client.request('POST', `${API}/auth/signup`, {
        payload: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024), authOrigin: 'Clearing' }),
        headers: { 'content-type': 'application/json' },
      });
      expect(huge.statusCode).toBe(413);
      expect(huge.json().errorMessage).toBeTruthy();
    });

    it('rate-limits sign-up per IP with a 429 and an errorMessage', async () => {
      const client = freshClient(t.app);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await client.post(`${API}/auth/signup`, {
          email: uniqueEmail('burst'),
          authOrigin: 'Clearing',
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) {
          expect(response.json().errorMessage).toMatch(/Too many attempts/);
        }
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    });

    it('refuses a state-changing call without or with a wrong CSRF header', async () => {
      const client = freshClient(t.app);
      const email = uniqueEmail();
      const missing = await client.post(
        `${API}/auth/signup`,
        { email, authOrigin: 'Clearing' },
        { csrf: false },
      );
      expect(missing.statusCode).toBe(403);
      const wrong = await client.request('POST', `${API}/auth/signup`, {
        json: { email, authOrigin: 'Clearing' },
        csrf: false,
        headers: { 'x-csrf-token': 'forged' },
      });
      expect(wrong.statusCode).toBe(403);
      expect(t.mailer.outbox().some((m) => m.to === email)).toBe(false);
    });
  });

  describe('verify-email', () => {
    it('sets the password, verifies, consumes the token and lets the user sign in', async () => {
      const email = uniqueEmail();
      const client = freshClient(t.app);
      await client.post(`${API}/auth/signup`, { email, authOrigin: 'Clearing' });
      const token = lastLink(t, email, 'verify-email').searchParams.get('access_token');
      const ok = await client.post(`${API}/auth/verify-email`, {
        token,
        email,
        password: PASSWORD,
      });
      expect(ok.statusCode).toBe(200);
      const reused = await client.post(`${API}/auth/verify-email`, {
        token,
        email,
        password: 'Another-Pass-2',
      });
      expect(reused.statusCode).toBe(400);
      expect(reused.json().errorMessage).toMatch(/invalid or has expired/);
      const signin = await client.post(`${API}/auth/signin`, { email, password: PASSWORD });
      expect(signin.statusCode).toBe(200);
      expect(signin.json().authStatus).toBe('AuthComplete');
      const user = await t.pool.query('select id from users where email = $1', [email]);
      expect(await auditCount('email.verified', user.rows[0].id)).toBe(1);
    });

    it('refuses an expired token, a wrong email and a weak password, changing nothing', async () => {
      const email = uniqueEmail();
      const client = freshClient(t.app);
      await client.post(`${API}/auth/signup`, { email, authOrigin: 'Clearing' });
      const token = lastLink(t, email, 'verify-email').searchParams.get('access_token');

      const weak = await client.post(`${API}/auth/verify-email`, { token, email, password: 'abc' });
      expect(weak.statusCode).toBe(400);
      expect(weak.json().errorMessage).toBe('Password is too weak');

      const otherEmail = await client.post(`${API}/auth/verify-email`, {
        token,
        email: uniqueEmail(),
        password: PASSWORD,
      });
      expect(otherEmail.statusCode).toBe(400);

      await t.pool.query(
        `update auth_tokens set expires_at = now() - interval '1 minute'
          where user_id = (select id from users where email = $1)`,
        [email],
      );
      const expired = await client.post(`${API}/auth/verify-email`, {
        token,
        email,
        password: PASSWORD,
      });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().errorMessage).toMatch(/invalid or has expired/);
      const row = await t.pool.query(
        `select u.password_hash, u.email_verified_at, a.used_at
           from users u join auth_tokens a on a.user_id = u.id where u.email = $1`,
        [email],
      );
      expect(row.rows[0]).toEqual({ password_hash: null, email_verified_at: null, used_at: null });
    });

    it('refuses a token of another purpose and a made-up token', async () => {
      const user = await createVerifiedUser(t);
      const client = freshClient(t.app);
      await client.post(`${API}/auth/password/reset/request`, {
        email: user.email,
        authOrigin: 'Clearing',
      });
      const resetToken = lastLink(t, user.email, 'reset-password').searchParams.get('access_token');
      for (const token of [resetToken, 'made-up']) {
        const response = await client.post(`${API}/auth/verify-email`, {
          token,
          email: user.email,
          password: PASSWORD,
        });
        expect(response.statusCode).toBe(400);
      }
    });
  });

  describe('sign-in and sign-out', () => {
    it('answers NotAuthenticated, then Authenticated with the staff flag, on both prefixes', async () => {
      const { client } = await signedIn(t);
      const anonymous = await freshClient(t.app).get(`${API}/auth/signin`);
      expect(anonymous.json()).toEqual({ status: 'NotAuthenticated' });
      for (const prefix of [API, '/clearing/api/web']) {
        const check = await client.get(`${prefix}/auth/signin`);
        expect(check.json()).toEqual({ status: 'Authenticated', isNorthstarClearingStaff: false });
      }
      // The clearing prefix only checks: no sign-in there.
      const post = await client.post('/clearing/api/web/auth/signin', {
        email: 'a',
        password: 'b',
      });
      expect(post.statusCode).toBe(404);
    });

    it('returns the user at AuthComplete and never the hash or TOTP secret', async () => {
      const user = await createVerifiedUser(t);
      const response = await freshClient(t.app).post(`${API}/auth/signin`, {
        email: user.email.toUpperCase(),
        password: user.password,
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.authStatus).toBe('AuthComplete');
      expect(body.user).toEqual({
        id: user.id,
        email: user.email,
        isNorthstarClearingStaff: false,
        details: null,
        orgDetails: null,
        organizationId: null,
        roles: [],
        review: null,
      });
      expect(response.body).not.toMatch(/scrypt|password_hash|totp/);
      expect(await auditCount('signin', user.id)).toBe(1);
    });

    it('gives the same 401 for a wrong password, an unknown email and an unverified user', async () => {
      const user = await createVerifiedUser(t);
      const unverified = uniqueEmail();
      await freshClient(t.app).post(`${API}/auth/signup`, {
        email: unverified,
        authOrigin: 'Clearing',
      });
      const client = freshClient(t.app);
      const bodies = [];
      for (const [email, password] of [
        [user.email, 'Wrong-Pass-1'],
        [uniqueEmail(), PASSWORD],
        [unverified, PASSWORD],
      ]) {
        const response = await client.post(`${API}/auth/signin`, { email, password });
        expect(response.statusCode).toBe(401);
        bodies.push(response.json());
      }
      expect(bodies).toEqual(
        Array(3).fill({ errorMessage: 'Invalid email or password.', code: 'invalid_credentials' }),
      );
      expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
    });

    it('refuses an empty password and an over-long 2FA code with 400', async () => {
      const client = freshClient(t.app);
      const empty = await client.post(`${API}/auth/signin`, { email: 'a@b.example', password: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errorMessage).toBe('Please enter a password');
      const long = await client.post(`${API}/auth/signin`, {
        email: 'a@b.example',
        password: 'x',
        totpCode: '1234567',
      });
      expect(long.statusCode).toBe(400);
    });

    it('rotates the session at sign-in: a new cookie, and the old one no longer authenticates', async () => {
      const { client, email, password } = await signedIn(t);
      const before = client.cookies.get(SESSION_COOKIE)!;
      const again = await client.post(`${API}/auth/signin`, { email, password });
      expect(again.statusCode).toBe(200);
      const after = client.cookies.get(SESSION_COOKIE)!;
      expect(after).not.toBe(before);
      const stale = await t.app.inject({
        method: 'GET',
        url: `${API}/auth/signin`,
        headers: { cookie: `${SESSION_COOKIE}=${before}` },
      });
      expect(stale.json()).toEqual({ status: 'NotAuthenticated' });
      const fresh = await client.get(`${API}/user`);
      expect(fresh.statusCode).toBe(200);
    });

    it('ends the session server-side at sign-out', async () => {
      const { client, id } = await signedIn(t);
      const cookie = client.cookies.get(SESSION_COOKIE)!;
      const out = await client.post(`${API}/auth/signout`);
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({});
      expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
      const replay = await t.app.inject({
        method: 'GET',
        url: `${API}/user`,
        headers: { cookie: `${SESSION_COOKIE}=${cookie}` },
      });
      expect(replay.statusCode).toBe(401);
      expect(replay.json().errorMessage).toBeTruthy();
      expect(await auditCount('signout', id)).toBe(1);
    });

    it('rate-limits sign-in per IP and account', async () => {
      const client = freshClient(t.app);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const response = await client.post(`${API}/auth/signin`, {
          email: i % 2 ? 'NOBODY@example.test' : 'nobody@example.test',
          password: 'Wrong-Pass-1',
        });
        statuses.push(response.statusCode);
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses[10]).toBe(429);
      expect(
        (
          await client.post(`${API}/auth/signin`, { email: 'nobody@example.test', password: 'x' })
        ).json().errorMessage,
      ).toBe('Too many attempts. Please wait a minute and try again.');
      // Another account from the same address is not locked out.
      const other = await client.post(`${API}/auth/signin`, {
        email: 'somebody-else@example.test',
        password: 'Wrong-Pass-1',
      });
      expect(other.statusCode).toBe(401);
    });
  });

  describe('sign-in with two-factor authentication', () => {
    it('asks for the code after the password, refuses a wrong code and a replay, accepts the right one', async () => {
      const { client, email, password, id } = await signedIn(t);
      const secret = await enableTwoFactor(client);
      const fresh = freshClient(t.app);

      const wrongPassword = await fresh.post(`${API}/auth/signin`, {
        email,
        password: 'Nope-Pass-1',
      });
      expect(wrongPassword.statusCode).toBe(401);

      const step1 = await fresh.post(`${API}/auth/signin`, { email, password });
      expect(step1.statusCode).toBe(200);
      expect(step1.json()).toEqual({
        authStatus: 'TwoFactorRequired',
        methods: ['totp', 'recovery_code'],
      });
      expect(fresh.cookies.has(SESSION_COOKIE)).toBe(false);

      const code = totpCode(secret);
      const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const wrong = await fresh.post(`${API}/auth/signin`, {
        email,
        password,
        totpCode: wrongCode,
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().errorMessage).toMatch(/two-factor code/);
      expect(fresh.cookies.has(SESSION_COOKIE)).toBe(false);

      const right = await fresh.post(`${API}/auth/signin`, { email, password, totpCode: code });
      expect(right.statusCode).toBe(200);
      expect(right.json().authStatus).toBe('AuthComplete');
      expect(fresh.cookies.has(SESSION_COOKIE)).toBe(true);

      const replayClient = freshClient(t.app);
      const replay = await replayClient.post(`${API}/auth/signin`, {
        email,
        password,
        totpCode: code,
      });
      expect(replay.statusCode).toBe(401);
      expect(replayClient.cookies.has(SESSION_COOKIE)).toBe(false);
      expect(await auditCount('signin.failed', id)).toBeGreaterThanOrEqual(3);
    });
  });

  describe('password reset', () => {
    it('answers known, unknown and unverified emails the same; only a verified user gets a link', async () => {
      const user = await createVerifiedUser(t);
      const unverified = uniqueEmail();
      await freshClient(t.app).post(`${API}/auth/signup`, {
        email: unverified,
        authOrigin: 'Clearing',
      });
      const client = freshClient(t.app);
      const answers = [];
      for (const email of [user.email, uniqueEmail(), unverified]) {
        const response = await client.post(`${API}/auth/password/reset/request`, {
          email,
          authOrigin: 'Clearing',
        });
        answers.push([response.statusCode, response.body]);
      }
      expect(answers).toEqual(Array(3).fill([200, '{}']));
      const link = lastLink(t, user.email, 'reset-password');
      expect(link.pathname).toBe('/clearing/user/reset-password');
      expect(link.searchParams.get('user_id')).toBe(user.id);
      expect(() => lastLink(t, unverified, 'reset-password')).toThrow();
    });

    it('sets the new password, consumes the token and ends every session of the user', async () => {
      const { client, email, id } = await signedIn(t);
      const anon = freshClient(t.app);
      await anon.post(`${API}/auth/password/reset/request`, { email, authOrigin: 'Clearing' });
      const link = lastLink(t, email, 'reset-password');
      const body = {
        token: link.searchParams.get('access_token'),
        userId: link.searchParams.get('user_id'),
        password: 'Brand-New-Pass-9',
      };
      const reset = await anon.post(`${API}/auth/password/reset`, body);
      expect(reset.statusCode).toBe(200);
      expect((await client.get(`${API}/user`)).statusCode).toBe(401);
      const reused = await anon.post(`${API}/auth/password/reset`, {
        ...body,
        password: 'Other-Pass-77',
      });
      expect(reused.statusCode).toBe(400);
      const oldPassword = await anon.post(`${API}/auth/signin`, { email, password: PASSWORD });
      expect(oldPassword.statusCode).toBe(401);
      const newPassword = await anon.post(`${API}/auth/signin`, {
        email,
        password: 'Brand-New-Pass-9',
      });
      expect(newPassword.statusCode).toBe(200);
      expect(await auditCount('password.reset', id)).toBe(1);
    });

    it('refuses an expired token, another user id, a weak password and a malformed id, changing nothing', async () => {
      const user = await createVerifiedUser(t);
      const other = await createVerifiedUser(t);
      const client = freshClient(t.app);
      await client.post(`${API}/auth/password/reset/request`, {
        email: user.email,
        authOrigin: 'Clearing',
      });
      const token = lastLink(t, user.email, 'reset-password').searchParams.get('access_token');
      const attempts = [
        { token, userId: other.id, password: 'Fine-Pass-11' },
        { token, userId: user.id, password: 'weak' },
        { token, userId: 'not-a-uuid', password: 'Fine-Pass-11' },
      ];
      for (const body of attempts) {
        const response = await client.post(`${API}/auth/password/reset`, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().errorMessage).toBeTruthy();
      }
      await t.pool.query(
        `update auth_tokens set expires_at = now() - interval '1 second' where user_id = $1`,
        [user.id],
      );
      const expired = await client.post(`${API}/auth/password/reset`, {
        token,
        userId: user.id,
        password: 'Fine-Pass-11',
      });
      expect(expired.statusCode).toBe(400);
      const signin = await client.post(`${API}/auth/signin`, {
        email: user.email,
        password: user.password,
      });
      expect(signin.statusCode).toBe(200);
    });
  });
  describe('bad input', () => {
    it('answers 4xx with an errorMessage, never 500, for malformed bodies on every call', async () => {
      const { client } = await signedIn(t);
      const calls: [string, string][] = [
        ['POST', `${API}/auth/signup`],
        ['POST', `${API}/auth/verify-email`],
        ['POST', `${API}/auth/signin`],
        ['POST', `${API}/auth/password/reset/request`],
        ['POST', `${API}/auth/password/reset`],
        ['POST', `${API}/auth/invite/accept`],
        ['POST', `${API}/registration/user`],
        ['POST', `${API}/user/settings`],
        ['PATCH', `${API}/user/2fa`],
      ];
      const bodies: [string, string][] = [
        ['application/json', 'null'],
        ['application/json', '[1,2]'],
        ['application/json', '{"email":'],
        ['application/json', '{"email":1e999,"password":{},"token":[],"userId":"x"}'],
        ['text/plain', 'hello'],
        [
          'multipart/form-data; boundary=xyz',
          '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
        ],
        ['multipart/form-data', 'no boundary'],
      ];
      for (const [method, url] of calls) {
        for (const [type, payload] of bodies) {
          const response = await client.request(method as 'POST', url, {
            payload,
            headers: { 'content-type': type },
          });
          const label = `${method} ${url} ${type} ${payload}`;
          expect(response.statusCode, label).toBeGreaterThanOrEqual(400);
          expect(response.statusCode, label).toBeLessThan(500);
          expect(response.json().errorMessage, label).toBeTruthy();
        }
      }
    });
  });
});
