/**
 * Issue 27 §1 and §2: failed second-factor attempts limited per account whatever the address
 * (NIST SP 800-63B-4 §3.2.2), and sensitive changes asking for a current second factor beside
 * the password (ASVS 5.0 7.5.1, level 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { totpCode } from '../../src/server/auth/totp';
import {
  SECOND_FACTOR_CAPPED,
  SECOND_FACTOR_NEEDED,
  WAIT_AFTER_FAILURE_SECONDS,
} from '../../src/server/auth/secondFactor';
import { enableTwoFactor, freshClient, lastLink, PASSWORD, signedIn } from './authHelpers';
import { SoftAuthenticator } from './softAuthenticator';
import { createTestApp, TestClient, type TestApp } from './testApp';

const API = '/exchange/api/web';
const PROXY = '192.0.2.10';
const LOCK_SUBJECT = /Two-factor sign-in to your .* account is locked/;

let t: TestApp;
/** A second instance of the portal on the same database (several instances share PostgreSQL). */
let other: FastifyInstance;

beforeAll(async () => {
  // Behind a trusted proxy: X-Forwarded-For names the client, as in production.
  t = await createTestApp({ trustProxy: ['192.0.2.0/24'] });
  other = await buildApp({ config: t.config, pool: t.pool, mailer: t.mailer, logger: false });
  await other.ready();
});
afterAll(async () => {
  await other.close();
  await t.close();
});

let nextAddress = 1;
/** A browser of its own, at an address of its own, reaching `app` through the trusted proxy. */
function browserAt(app: FastifyInstance = t.app): TestClient {
  const n = nextAddress++;
  const address = `198.51.${(n >> 8) & 255}.${n & 255}`;
  return new TestClient({
    inject: (options: { headers?: Record<string, string> }) =>
      app.inject({
        ...options,
        remoteAddress: PROXY,
        headers: { ...options.headers, 'x-forwarded-for': address },
      }),
    backgroundJobs: app.backgroundJobs,
  } as unknown as FastifyInstance);
}

/** A six-digit code no step around now accepts. */
function wrongCode(secret: string): string {
  const valid = new Set([-1, 0, 1].map((step) => totpCode(secret, Date.now() + step * 30_000)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

/** As if the current wait or lock had run out. */
async function waitRunsOut(userId: string) {
  await t.pool.query(
    `update users set second_factor_blocked_until = now() - interval '1 second' where id = $1`,
    [userId],
  );
}

async function secondFactorState(userId: string) {
  const result = await t.pool.query<{ failures: number; wait: number | null }>(
    `select second_factor_failures as failures,
            extract(epoch from second_factor_blocked_until - now())::float as wait
       from users where id = $1`,
    [userId],
  );
  return result.rows[0]!;
}

const lockMails = (email: string) =>
  t.mailer.outbox().filter((mail) => mail.to === email && LOCK_SUBJECT.test(mail.subject));

/** A user with the authenticator app on; its secret. */
async function withApp() {
  const user = await signedIn(t);
  const secret = await enableTwoFactor(user.client, user.password);
  return { ...user, secret };
}

/** Adds a passkey through the profile's calls; `proof` is the second factor they ask for. */
async function addPasskey(client: TestClient, proof: Record<string, unknown> = {}) {
  const authenticator = new SoftAuthenticator(t.config.publicUrl);
  const options = await client.post(`${API}/user/passkeys/options`, {
    password: PASSWORD,
    ...proof,
  });
  expect(options.statusCode, options.body).toBe(200);
  const added = await client.post(`${API}/user/passkeys`, {
    name: 'Laptop',
    response: authenticator.register(options.json()),
  });
  expect(added.statusCode, added.body).toBe(200);
  return { authenticator, passkey: added.json() as { id: string } };
}

/** A passkey's answer to a re-authentication, as the profile's dialog gets it. */
async function passkeyProof(client: TestClient, authenticator: SoftAuthenticator) {
  const options = await client.post(`${API}/user/reauth/passkey-options`);
  expect(options.statusCode, options.body).toBe(200);
  return { passkey: authenticator.authenticate(options.json()) };
}

describe('second-factor guessing is limited per account, whatever the address (§1)', () => {
  it('60 sign-ins with the right password and wrong codes, each from another address and alternating instances, are limited', async () => {
    const { email, password, secret, id } = await withApp();
    const statuses: number[] = [];
    const refusals: { message: string; retryAfter: number }[] = [];
    for (let i = 0; i < 60; i++) {
      const browser = browserAt(i % 2 ? other : t.app);
      const response = await browser.post(`${API}/auth/signin`, {
        email,
        password,
        totpCode: wrongCode(secret),
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        refusals.push({
          message: response.json().errorMessage,
          retryAfter: Number(response.headers['retry-after']),
        });
      }
    }
    // Four failures answered at once, the fifth brings a wait: every later guess waits.
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    for (const refusal of refusals) {
      expect(refusal.retryAfter).toBeGreaterThan(0);
      expect(refusal.retryAfter).toBeLessThanOrEqual(30);
      expect(refusal.message).toMatch(
        /^Too many failed two-factor attempts\. Please wait \d+ seconds? and try again\.$/,
      );
    }
    // Only the checked attempts count.
    expect((await secondFactorState(id)).failures).toBe(5);
  });

  it('guesses sent together each take their own place in the count: none slips past the wait', async () => {
    const { email, password, secret, id } = await withApp();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        browserAt(i % 2 ? other : t.app).post(`${API}/auth/signin`, {
          email,
          password,
          totpCode: wrongCode(secret),
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect((await secondFactorState(id)).failures).toBe(5);
  });

  it('waits grow, the tenth failure locks for an hour and mails the owner once; the right code after the lock signs in and resets the count', async () => {
    const { email, password, secret, id } = await withApp();
    const guess = () =>
      browserAt().post(`${API}/auth/signin`, { email, password, totpCode: wrongCode(secret) });
    for (let failure = 1; failure <= 10; failure++) {
      await waitRunsOut(id);
      expect((await guess()).statusCode).toBe(401);
      const state = await secondFactorState(id);
      expect(state.failures).toBe(failure);
      const wait = WAIT_AFTER_FAILURE_SECONDS[failure - 1]!;
      // No wait is stored as none (db/users.ts says why), not as one that ends now.
      if (wait === 0) {
        expect(state.wait).toBeNull();
        continue;
      }
      expect(state.wait).toBeGreaterThan(wait - 5);
      expect(state.wait).toBeLessThanOrEqual(wait);
    }
    expect(WAIT_AFTER_FAILURE_SECONDS.slice(0, 10)).toEqual([
      0, 0, 0, 0, 30, 60, 120, 240, 480, 3600,
    ]);

    // Locked: even the right code waits, and the answer says until when.
    const locked = await browserAt().post(`${API}/auth/signin`, {
      email,
      password,
      totpCode: totpCode(secret),
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().errorMessage).toMatch(
      /^Two-factor sign-in is locked after too many failed attempts\. Please try again after \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
    );
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(3500);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(3600);
    // The password step says the same (only to the right password); a wrong one learns nothing.
    const step1 = await browserAt().post(`${API}/auth/signin`, { email, password });
    expect(step1.statusCode).toBe(429);
    const wrongPassword = await browserAt().post(`${API}/auth/signin`, {
      email,
      password: 'Not-The-Pass-1',
    });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json().errorMessage).toBe('Invalid email or password.');

    // One email to the owner, with nothing to sign in with.
    const mails = lockMails(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toMatch(/locked until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(mails[0]!.text).not.toContain(secret);
    expect(mails[0]!.text).not.toMatch(/\b\d{6}\b/);
    expect(mails[0]!.text).not.toContain(password);
    // Further failures lock again, longer, and mail no more.
    await waitRunsOut(id);
    expect((await guess()).statusCode).toBe(401);
    expect((await secondFactorState(id)).wait).toBeGreaterThan(7000);
    expect(lockMails(email)).toHaveLength(1);

    // The lock ends: the owner's right code signs in, and the count starts again.
    await waitRunsOut(id);
    const owner = browserAt();
    const right = await owner.post(`${API}/auth/signin`, {
      email,
      password,
      totpCode: totpCode(secret),
    });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().authStatus).toBe('AuthComplete');
    expect(await secondFactorState(id)).toEqual({ failures: 0, wait: null });
    expect((await guess()).statusCode).toBe(401);
    expect((await guess()).statusCode).toBe(401);
  });

  it('the 100th failure in a row locks the second factor until the password is reset (NIST cap), which starts the count again', async () => {
    const { email, password, secret, id } = await withApp();
    const guess = (withPassword = password) =>
      browserAt().post(`${API}/auth/signin`, {
        email,
        password: withPassword,
        totpCode: wrongCode(secret),
      });
    // As if 98 failures had come over the months the growing waits make them take.
    await t.pool.query(`update users set second_factor_failures = 98 where id = $1`, [id]);
    await waitRunsOut(id);
    expect((await guess()).statusCode).toBe(401);
    await waitRunsOut(id);
    expect((await guess()).statusCode).toBe(401);
    expect((await secondFactorState(id)).failures).toBe(100);

    // No wait ends it: even the right code is refused, and the answer says what does.
    await waitRunsOut(id);
    const capped = await browserAt().post(`${API}/auth/signin`, {
      email,
      password,
      totpCode: totpCode(secret),
    });
    expect(capped.statusCode).toBe(403);
    expect(capped.json().errorMessage).toBe(SECOND_FACTOR_CAPPED);
    expect((await guess()).statusCode).toBe(403);
    expect((await secondFactorState(id)).failures).toBe(100);
    const audit = await t.pool.query(
      `select 1 from audit_log where action = '2fa.locked' and actor_user_id = $1
          and detail->>'untilPasswordReset' = 'true'`,
      [id],
    );
    expect(audit.rowCount).toBe(1);

    // The owner resets the password: the count starts again, and the right code signs in.
    const anon = browserAt();
    await anon.post(`${API}/auth/password/reset/request`, { email, authOrigin: 'Clearing' });
    const link = lastLink(t, email, 'reset-password');
    const newPassword = 'Brand-New-Pass-9';
    const reset = await anon.post(`${API}/auth/password/reset`, {
      token: link.searchParams.get('access_token'),
      userId: link.searchParams.get('user_id'),
      password: newPassword,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await secondFactorState(id)).toEqual({ failures: 0, wait: null });
    const owner = await browserAt().post(`${API}/auth/signin`, {
      email,
      password: newPassword,
      totpCode: totpCode(secret),
    });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json().authStatus).toBe('AuthComplete');
  });

  it('failed passkey assertions count the same way, and a right one after the wait resets them', async () => {
    const { client, email, password, id } = await signedIn(t);
    const { authenticator } = await addPasskey(client);
    const stranger = new SoftAuthenticator(t.config.publicUrl);
    for (let failure = 1; failure <= 5; failure++) {
      const browser = browserAt(failure % 2 ? other : t.app);
      const step1 = await browser.post(`${API}/auth/signin`, { email, password });
      expect(step1.statusCode, step1.body).toBe(200);
      const { passkeyOptions } = step1.json();
      // Odd: another authenticator's key; even: the right key signing another challenge.
      const response =
        failure % 2
          ? stranger.authenticate(passkeyOptions)
          : authenticator.authenticate({ challenge: 'b3RoZXItY2hhbGxlbmdl' });
      const answer = await browser.post(`${API}/auth/signin/passkey`, { response });
      expect(answer.statusCode).toBe(401);
      expect((await secondFactorState(id)).failures).toBe(failure);
    }
    const waiting = await browserAt().post(`${API}/auth/signin`, { email, password });
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().errorMessage).toMatch(/Please wait 30 seconds/);

    await waitRunsOut(id);
    const owner = browserAt();
    const step1 = (await owner.post(`${API}/auth/signin`, { email, password })).json();
    const signedInWithKey = await owner.post(`${API}/auth/signin/passkey`, {
      response: authenticator.authenticate(step1.passkeyOptions),
    });
    expect(signedInWithKey.statusCode, signedInWithKey.body).toBe(200);
    expect((await secondFactorState(id)).failures).toBe(0);
  });
});

describe('sensitive changes need a current second factor too (§2)', () => {
  /** The 403 a change answers to the password alone when the account has a second factor. */
  function expectSecondFactorAsked(
    response: { statusCode: number; json(): unknown },
    methods: string,
  ) {
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      errorMessage: SECOND_FACTOR_NEEDED,
      code: 'second_factor_required',
      errors: { secondFactor: methods },
    });
  }

  it('turning two-factor off: the password alone is refused; a wrong code counts; password and code turn it off', async () => {
    const { client, password, secret, id } = await withApp();
    const alone = await client.request('DELETE', `${API}/user/2fa`, { json: { password } });
    expectSecondFactorAsked(alone, 'totp recovery_code');
    expect((await client.get(`${API}/user/2fa/state`)).json()).toEqual({ enabled: true });

    const wrong = await client.request('DELETE', `${API}/user/2fa`, {
      json: { password, totpCode: wrongCode(secret) },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ totpCode: expect.stringMatching(/code is not right/) });
    expect((await secondFactorState(id)).failures).toBe(1);
    // The wrong password is still named as such, before any code is looked at.
    const wrongPassword = await client.request('DELETE', `${API}/user/2fa`, {
      json: { password: 'Not-The-Pass-1', totpCode: totpCode(secret) },
    });
    expect(wrongPassword.json().errorMessage).toBe('Password is wrong');

    const off = await client.request('DELETE', `${API}/user/2fa`, {
      json: { password, totpCode: totpCode(secret) },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ enabled: false });
    expect((await secondFactorState(id)).failures).toBe(0);
  });

  it('adding a passkey: the password alone is refused; password and code give the options', async () => {
    const { client, password, secret } = await withApp();
    const alone = await client.post(`${API}/user/passkeys/options`, { password });
    expectSecondFactorAsked(alone, 'totp recovery_code');
    // No challenge was stored: an answer now has nothing to answer.
    const unasked = await client.post(`${API}/user/passkeys`, {
      name: 'Sneaky',
      response: new SoftAuthenticator(t.config.publicUrl).register({ challenge: 'bm8tY2hhbA' }),
    });
    expect(unasked.statusCode).toBe(400);
    await addPasskey(client, { totpCode: totpCode(secret) });
    expect((await client.get(`${API}/user/profile`)).json().passkeys).toHaveLength(1);
  });

  it('adding an authenticator app to a passkey account: the password alone is refused; the passkey lets it start', async () => {
    const { client, password } = await signedIn(t);
    const { authenticator } = await addPasskey(client);
    expectSecondFactorAsked(await client.post(`${API}/user/2fa`, { password }), 'passkey');
    const started = await client.post(`${API}/user/2fa`, {
      password,
      ...(await passkeyProof(client, authenticator)),
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().secret).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('removing a passkey: the password alone is refused; password and passkey remove it', async () => {
    const { client, password, secret } = await withApp();
    const { authenticator, passkey } = await addPasskey(client, {
      totpCode: totpCode(secret),
    });
    const url = `${API}/user/passkeys/${passkey.id}`;
    const alone = await client.request('DELETE', url, { json: { password } });
    expectSecondFactorAsked(alone, 'totp passkey recovery_code');
    expect((await client.get(`${API}/user/profile`)).json().passkeys).toHaveLength(1);
    // An answer to a challenge that was not the re-authentication's is refused.
    const forged = await client.request('DELETE', url, {
      json: { password, passkey: authenticator.authenticate({ challenge: 'Zm9yZ2Vk' }) },
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().errorMessage).toMatch(/passkey could not be verified/);
    const removed = await client.request('DELETE', url, {
      json: { password, ...(await passkeyProof(client, authenticator)) },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await client.get(`${API}/user/profile`)).json().passkeys).toEqual([]);
  });

  it('changing the email: the password alone is refused and mails nothing; password and code send the link', async () => {
    const { client, password, secret, email } = await withApp();
    const newEmail = `moved.${Date.now()}@example.test`;
    const before = t.mailer.outbox().length;
    const alone = await client.post(`${API}/user/email`, { password, newEmail });
    expectSecondFactorAsked(alone, 'totp recovery_code');
    expect(t.mailer.outbox().length).toBe(before);
    const sent = await client.post(`${API}/user/email`, {
      password,
      newEmail,
      totpCode: totpCode(secret),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(t.mailer.outbox().some((mail) => mail.to === newEmail)).toBe(true);
    expect(t.mailer.outbox().some((mail) => mail.to === email)).toBe(true);
  });

  it('changing the password: the current password alone is refused and changes nothing; with a code it changes', async () => {
    const { client, password, secret, email } = await withApp();
    const body = {
      currentPassword: password,
      newPassword: 'Harbour-Kite-93',
      endOtherSessions: false,
    };
    const alone = await client.post(`${API}/user/password`, body);
    expectSecondFactorAsked(alone, 'totp recovery_code');
    const oldStill = await freshClient(t.app).post(`${API}/auth/signin`, { email, password });
    expect(oldStill.json().authStatus).toBe('TwoFactorRequired');
    const changed = await client.post(`${API}/user/password`, {
      ...body,
      totpCode: totpCode(secret),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const oldRefused = await freshClient(t.app).post(`${API}/auth/signin`, { email, password });
    expect(oldRefused.statusCode).toBe(401);
  });

  it('a re-authentication passkey challenge needs a session and a passkey', async () => {
    const anon = await freshClient(t.app).post(`${API}/user/reauth/passkey-options`);
    expect(anon.statusCode).toBe(401);
    const { client } = await withApp();
    const none = await client.post(`${API}/user/reauth/passkey-options`);
    expect(none.statusCode).toBe(400);
    expect(none.json().errorMessage).toMatch(/no passkey/);
  });
});
