/**
 * Issue 39 §4: wrong passwords limited per account whatever the address (NIST SP 800-63B-4
 * §3.2.2: at most 100 consecutive failures), counted in PostgreSQL across instances, without
 * letting someone who does not know the password lock the owner out: a browser that signed in to
 * the account before never waits, a reset ends the lock, and an email with no account is answered
 * the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { buildApp } from '../../src/server/app';
import { emailDigest } from '../../src/server/audit/recordAuditEvent';
import { PASSWORD_SIGNIN_CAPPED } from '../../src/server/auth/passwordFailures';
import { createPool } from '../../src/server/db/database';
import { accountSubject, addressSubject } from '../../src/server/db/passwordFailures';
import { DEVICE_COOKIE } from '../../src/server/plugins/session';
import { createVerifiedUser, lastLink, uniqueEmail } from './authHelpers';
import { createTestApp, TestClient, type TestApp } from './testApp';

const API = '/exchange/api/web';
const PROXY = '192.0.2.20';
const WRONG = 'Wrong-Pass-1';
const LOCK_SUBJECT = /Sign-in to your .* account is locked for new browsers/;

let t: TestApp;
/** A second instance of the portal, with its own pool, on the same database. */
let other: FastifyInstance;
let otherPool: pg.Pool;

beforeAll(async () => {
  // Behind a trusted proxy: X-Forwarded-For names the client, as in production.
  t = await createTestApp({ trustProxy: ['192.0.2.0/24'] });
  const url = (t.pool as unknown as { options: { connectionString: string } }).options
    .connectionString;
  otherPool = createPool(url);
  other = await buildApp({ config: t.config, pool: otherPool, mailer: t.mailer, logger: false });
  await other.ready();
});
afterAll(async () => {
  await other.close();
  await otherPool.end();
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

const signIn = (browser: TestClient, email: string, password: string) =>
  browser.post(`${API}/auth/signin`, { email, password });

/** As if the current wait or lock had run out. */
async function waitRunsOut(subject: string) {
  await t.pool.query(
    `update password_failures set blocked_until = now() - interval '1 second' where subject = $1`,
    [subject],
  );
}

async function countOf(subject: string) {
  const result = await t.pool.query<{ failures: number; wait: number | null }>(
    `select failures, extract(epoch from blocked_until - now())::float as wait
       from password_failures where subject = $1`,
    [subject],
  );
  return result.rows[0] ?? null;
}

const lockMails = (email: string) =>
  t.mailer.outbox().filter((mail) => mail.to === email && LOCK_SUBJECT.test(mail.subject));

/** Sets a new password through "Forgot Password", as the owner does. */
async function resetPassword(email: string, userId: string, password: string) {
  const browser = browserAt();
  const asked = await browser.post(`${API}/auth/password/reset/request`, {
    email,
    authOrigin: 'Clearing',
  });
  expect(asked.statusCode).toBe(200);
  const token = lastLink(t, email, 'reset-password').searchParams.get('access_token')!;
  const reset = await browser.post(`${API}/auth/password/reset`, { token, userId, password });
  expect(reset.statusCode, reset.body).toBe(200);
}

/** A browser that has signed in to the account (it holds the device cookie), then signed out. */
async function knownBrowser(email: string, password: string) {
  const browser = browserAt();
  expect((await signIn(browser, email, password)).statusCode).toBe(200);
  expect(browser.cookies.has(DEVICE_COOKIE)).toBe(true);
  expect((await browser.post(`${API}/auth/signout`)).statusCode).toBe(200);
  return browser;
}

/** A refusal with its numbers taken out, so two waits of one kind compare equal. */
const shape = (response: { statusCode: number; body: string }) =>
  `${response.statusCode} ${response.body.replace(/\d+/g, 'N')}`;

describe('wrong passwords are limited per account, whatever the address (issue 39 §4)', () => {
  it('105 wrong passwords from 105 addresses on two instances are limited; the right one from a new browser then waits', async () => {
    const user = await createVerifiedUser(t);
    const subject = accountSubject(user.id);
    const statuses: number[] = [];
    const refusals: { message: string; retryAfter: number }[] = [];
    for (let i = 0; i < 105; i++) {
      const response = await signIn(browserAt(i % 2 ? other : t.app), user.email, WRONG);
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        refusals.push({
          message: response.json().errorMessage,
          retryAfter: Number(response.headers['retry-after']),
        });
      }
    }
    // Ten failures answered at once, the eleventh brings a wait: every later guess waits.
    expect(statuses.slice(0, 11)).toEqual(Array(11).fill(401));
    expect(statuses.slice(11)).toEqual(Array(94).fill(429));
    for (const refusal of refusals) {
      expect(refusal.retryAfter).toBeGreaterThan(0);
      expect(refusal.retryAfter).toBeLessThanOrEqual(30);
      expect(refusal.message).toMatch(
        /^Too many failed sign-in attempts\. Please wait \d+ seconds and try again, or reset your password with Forgot Password\.$/,
      );
    }
    expect((await countOf(subject))?.failures).toBe(11);

    // The right password from a new browser, on either instance, waits too.
    for (const app of [t.app, other]) {
      const right = await signIn(browserAt(app), user.email, user.password);
      expect(right.statusCode).toBe(429);
      expect(right.json().errorMessage).toMatch(/^Too many failed sign-in attempts/);
    }
    // Once the wait has run out it signs in, and the count starts again.
    await waitRunsOut(subject);
    expect((await signIn(browserAt(other), user.email, user.password)).statusCode).toBe(200);
    expect(await countOf(subject)).toBeNull();
  });

  it('guesses sent together each take their own place in the count: none slips past the wait', async () => {
    const user = await createVerifiedUser(t);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        signIn(browserAt(i % 2 ? other : t.app), user.email, WRONG),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(11);
    expect(statuses.filter((status) => status === 429)).toHaveLength(19);
  });

  it('a browser that signed in to the account before never waits: it signs in while new browsers are refused', async () => {
    const user = await createVerifiedUser(t);
    const home = await knownBrowser(user.email, user.password);
    for (let i = 0; i < 30; i++) await signIn(browserAt(), user.email, WRONG);
    expect((await signIn(browserAt(), user.email, user.password)).statusCode).toBe(429);
    // Its own typo is counted and answered at once, not refused.
    expect((await signIn(home, user.email, WRONG)).statusCode).toBe(401);
    expect((await countOf(accountSubject(user.id)))?.failures).toBe(12);
    expect((await signIn(home, user.email, user.password)).statusCode).toBe(200);
    // Its right password started the count again: a new browser signs in too.
    expect((await signIn(browserAt(other), user.email, user.password)).statusCode).toBe(200);
  });

  it('an email with no account is answered exactly as an account is, wait for wait and lock for lock', async () => {
    const user = await createVerifiedUser(t);
    const nobody = uniqueEmail('nobody');
    const runs = [
      { email: user.email, subject: accountSubject(user.id) },
      { email: nobody, subject: addressSubject(emailDigest(t.app.fieldKeys, nobody).emailDigest) },
    ];
    const answers: string[][] = [[], []];
    for (let i = 0; i < 18; i++) {
      for (const [n, run] of runs.entries()) {
        const browser = browserAt(i % 2 ? other : t.app);
        answers[n]!.push(shape(await signIn(browser, run.email, WRONG)));
        // A guess while the wait runs, then the wait runs out.
        answers[n]!.push(shape(await signIn(browserAt(), run.email, WRONG)));
        await waitRunsOut(run.subject);
      }
    }
    // One more failure locks for a day; the guess after it meets the lock.
    for (const [n, run] of runs.entries()) {
      answers[n]!.push(shape(await signIn(browserAt(), run.email, WRONG)));
      answers[n]!.push(shape(await signIn(browserAt(), run.email, WRONG)));
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]).toContain(
      shape({
        statusCode: 401,
        body: '{"errorMessage":"Invalid email or password.","code":"invalid_credentials"}',
      }),
    );
    expect(answers[0]!.at(-1)).toMatch(/^429 .*Sign-in is locked after too many failed attempts/);
    // The owner's right password from a new browser gets the very answer the unknown email gets.
    const right = await signIn(browserAt(), user.email, user.password);
    expect(shape(right)).toBe(answers[1]!.at(-1));
  });

  it('the sixteenth failure locks new browsers out for an hour and mails the owner once; a password reset ends the lock', async () => {
    const user = await createVerifiedUser(t);
    const subject = accountSubject(user.id);
    for (let i = 1; i <= 17; i++) {
      expect((await signIn(browserAt(i % 2 ? other : t.app), user.email, WRONG)).statusCode).toBe(
        401,
      );
      if (i === 16) {
        const count = await countOf(subject);
        expect(count?.wait).toBeGreaterThan(3_590);
        expect(count?.wait).toBeLessThanOrEqual(3_600);
      }
      if (i < 17) await waitRunsOut(subject);
    }
    // The lock of the 17th failure (two hours) holds for the right password too.
    const locked = await signIn(browserAt(), user.email, user.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().errorMessage).toMatch(
      /^Sign-in is locked after too many failed attempts\. Please try again after \d{4}-\d\d-\d\d \d\d:\d\d UTC, or reset your password with Forgot Password\.$/,
    );
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(7_000);
    const mails = lockMails(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toMatch(/browsers you signed in with before still sign in/);
    expect(mails[0]!.text).not.toContain(WRONG);
    const audit = await t.pool.query(
      `select 1 from audit_log where action = 'signin.locked' and actor_user_id = $1`,
      [user.id],
    );
    expect(audit.rowCount).toBe(1);

    const renewed = 'Renewed-Harbour-Key-9';
    await resetPassword(user.email, user.id, renewed);
    expect(await countOf(subject)).toBeNull();
    expect((await signIn(browserAt(other), user.email, renewed)).statusCode).toBe(200);
  });

  it('the 100th failure in a row locks sign-in until the password is reset, even for a browser known to the account (NIST cap)', async () => {
    const user = await createVerifiedUser(t);
    const subject = accountSubject(user.id);
    const home = await knownBrowser(user.email, user.password);
    for (let i = 1; i <= 100; i++) {
      const response = await signIn(browserAt(i % 2 ? other : t.app), user.email, WRONG);
      expect(response.statusCode).toBe(401);
      await waitRunsOut(subject);
    }
    for (const browser of [browserAt(), home]) {
      const capped = await signIn(browser, user.email, user.password);
      expect(capped.statusCode).toBe(403);
      expect(capped.json().errorMessage).toBe(PASSWORD_SIGNIN_CAPPED);
    }
    // No wait ends it, and no 101st failure is counted.
    await waitRunsOut(subject);
    expect((await signIn(browserAt(), user.email, WRONG)).statusCode).toBe(403);
    expect((await countOf(subject))?.failures).toBe(100);
    const capAudit = await t.pool.query(
      `select 1 from audit_log where action = 'signin.locked' and actor_user_id = $1
          and detail->>'untilPasswordReset' = 'true'`,
      [user.id],
    );
    expect(capAudit.rowCount).toBe(1);

    const renewed = 'Renewed-Harbour-Key-9';
    await resetPassword(user.email, user.id, renewed);
    expect((await signIn(browserAt(), user.email, renewed)).statusCode).toBe(200);
  });
});
