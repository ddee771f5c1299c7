/**
 * Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
 * has signed in to an account is hashed ahead of the line when it signs in to that account again,
 * so a flood of guesses from many addresses cannot keep a returning user out.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HashQueue, passwordHashQueue } from '../../src/server/auth/hashQueue';
import { hashPassword } from '../../src/server/auth/passwords';
import { hashToken } from '../../src/server/db/opaqueTokens';
import { DEVICE_COOKIE } from '../../src/server/plugins/session';
import { createVerifiedUser, freshClient, lastLink, PASSWORD, uniqueEmail } from './authHelpers';
import { createTestApp, type TestApp, type TestClient } from './testApp';

const API = '/exchange/api/web';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
afterEach(() => vi.restoreAllMocks());

async function signIn(client: TestClient, email: string, password = PASSWORD) {
  return client.post(`${API}/auth/signin`, { email, password });
}

const deviceRows = async (userId: string) =>
  (
    await t.pool.query<{ token_hash: string }>(
      'select token_hash from device_cookies where user_id = $1',
      [userId],
    )
  ).rows.map((row) => row.token_hash);

describe('the device cookie', () => {
  it('is set by a successful sign-in, not a failed one: HttpOnly, SameSite=Strict, sent back to the sign-in alone, its hash stored', async () => {
    const user = await createVerifiedUser(t);
    const browser = freshClient(t.app);
    const wrong = await signIn(browser, user.email, 'Wrong-Pass-1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.cookies.find((c) => c.name === DEVICE_COOKIE)).toBeUndefined();

    const right = await signIn(browser, user.email);
    expect(right.statusCode).toBe(200);
    const cookie = right.cookies.find((c) => c.name === DEVICE_COOKIE)!;
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: `${API}/auth/signin`,
      maxAge: 90 * 24 * 60 * 60,
    });
    // The browser that verified the email holds one too; this one is the account's second.
    const known = await deviceRows(user.id);
    expect(known).toHaveLength(2);
    expect(known).toContain(hashToken(cookie.value));

    // Signed out and in again, the browser keeps its cookie and the account gains no new one.
    await browser.post(`${API}/auth/signout`);
    expect(browser.cookies.get(DEVICE_COOKIE)).toBe(cookie.value);
    const again = await signIn(browser, user.email);
    expect(again.statusCode).toBe(200);
    expect(again.cookies.find((c) => c.name === DEVICE_COOKIE)).toBeUndefined();
    expect(await deviceRows(user.id)).toHaveLength(2);
  });

  it('is set where the password was first set: verifying the email', async () => {
    const email = uniqueEmail();
    const browser = freshClient(t.app);
    await browser.post(`${API}/auth/signup`, { email, authOrigin: 'Clearing' });
    const link = lastLink(t, email, 'verify-email');
    const wrong = await browser.post(`${API}/auth/verify-email`, {
      token: 'not-the-token',
      email,
      password: PASSWORD,
    });
    expect(wrong.statusCode).toBe(400);
    expect(browser.cookies.has(DEVICE_COOKIE)).toBe(false);
    const verified = await browser.post(`${API}/auth/verify-email`, {
      token: link.searchParams.get('access_token'),
      email,
      password: PASSWORD,
    });
    expect(verified.statusCode).toBe(200);
    const cookie = verified.cookies.find((c) => c.name === DEVICE_COOKIE)!;
    expect(cookie).toMatchObject({ path: `${API}/auth/signin`, httpOnly: true });
    // Its first sign-in carries it, and the account gains no second one.
    expect((await signIn(browser, email)).cookies.some((c) => c.name === DEVICE_COOKIE)).toBe(
      false,
    );
    const user = await t.pool.query<{ id: string }>('select id from users where email = $1', [
      email,
    ]);
    expect(await deviceRows(user.rows[0]!.id)).toEqual([hashToken(cookie.value)]);
  });

  it('is forgotten by a password reset', async () => {
    const user = await createVerifiedUser(t);
    const browser = freshClient(t.app);
    await signIn(browser, user.email);
    expect(await deviceRows(user.id)).toHaveLength(2);
    await browser.post(`${API}/auth/password/reset/request`, {
      email: user.email,
      authOrigin: 'Clearing',
    });
    const link = lastLink(t, user.email, 'reset-password');
    const reset = await browser.post(`${API}/auth/password/reset`, {
      token: link.searchParams.get('access_token'),
      userId: link.searchParams.get('user_id'),
      password: 'Another-Pass-2',
    });
    expect(reset.statusCode).toBe(200);
    expect(await deviceRows(user.id)).toEqual([]);
  });
});

describe('without its table', () => {
  it('signs in and verifies as before, the browser simply not known', async () => {
    const user = await createVerifiedUser(t);
    const browser = freshClient(t.app);
    await signIn(browser, user.email);
    expect(browser.cookies.has(DEVICE_COOKIE)).toBe(true);
    await t.pool.query('alter table device_cookies rename to device_cookies_away');
    try {
      // A known browser (its cookie unreadable) and a new one (its cookie unwritable).
      expect((await signIn(browser, user.email)).statusCode).toBe(200);
      const other = freshClient(t.app);
      const signin = await signIn(other, user.email);
      expect(signin.statusCode).toBe(200);
      expect(other.cookies.has(DEVICE_COOKIE)).toBe(false);
      const email = uniqueEmail();
      await other.post(`${API}/auth/signup`, { email, authOrigin: 'Clearing' });
      const verified = await other.post(`${API}/auth/verify-email`, {
        token: lastLink(t, email, 'verify-email').searchParams.get('access_token'),
        email,
        password: PASSWORD,
      });
      expect(verified.statusCode).toBe(200);
    } finally {
      await t.pool.query('alter table device_cookies_away rename to device_cookies');
    }
  });
});

describe('a sign-in while the password hashes are queued', () => {
  /** Work that starts when the queue says and ends when the test says, logging its start. */
  function gated(log: string[], name: string) {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    return { work: () => (log.push(name), done), finish };
  }

  /**
   * Fills every slot (the shared ones and the trusted ones) and puts waiting work of three other
   * clients in line, then signs in through `browser` and frees two slots: answers what started
   * first in them.
   */
  async function firstServedAfterSlotsFree(
    browser: TestClient,
    email: string,
    password = PASSWORD,
    status = 200,
  ) {
    const log: string[] = [];
    const run = HashQueue.prototype.run.bind(passwordHashQueue);
    const spy = vi
      .spyOn(passwordHashQueue, 'run')
      .mockImplementation((client, work, trusted) =>
        run(client, () => (log.push('sign-in'), work()), trusted),
      );
    const running = Array.from({ length: passwordHashQueue.concurrency }, (_, n) =>
      gated(log, `running ${n}`),
    );
    const trustedSlots = Array.from({ length: passwordHashQueue.trustedSlots }, (_, n) =>
      gated(log, `trusted slot ${n}`),
    );
    const waiting = ['a', 'b', 'c'].map((name) => gated(log, name));
    const jobs = [
      ...running.map((job, n) => run(`192.0.2.${n + 1}`, job.work)),
      ...trustedSlots.map((job, n) => run(`192.0.2.${99 - n}`, job.work, true)),
      ...waiting.map((job, n) => run(`198.51.100.${n + 1}`, job.work)),
    ];
    const queuedBefore = passwordHashQueue.queued;
    const signin = signIn(browser, email, password);
    while (passwordHashQueue.queued === queuedBefore) await new Promise((r) => setTimeout(r, 5));
    log.length = 0;
    running[0]!.finish();
    for (const job of trustedSlots) job.finish();
    while (log.length === 0) await new Promise((r) => setTimeout(r, 5));
    const first = log[0];
    spy.mockRestore();
    for (const job of [...running, ...waiting]) job.finish();
    await Promise.all(jobs);
    expect((await signin).statusCode).toBe(status);
    return first;
  }

  it('from a browser that signed in to this account before goes ahead of the line', async () => {
    const user = await createVerifiedUser(t);
    const browser = freshClient(t.app);
    await signIn(browser, user.email);
    expect(await firstServedAfterSlotsFree(browser, user.email)).toBe('sign-in');
  });

  it('from a new browser, or one known to another account, waits its turn while the account has not signed in here', async () => {
    const user = await createVerifiedUser(t);
    expect(await firstServedAfterSlotsFree(freshClient(t.app), user.email)).toBe('a');

    const other = await createVerifiedUser(t);
    const othersBrowser = freshClient(t.app);
    await signIn(othersBrowser, other.email);
    expect(othersBrowser.cookies.has(DEVICE_COOKIE)).toBe(true);
    const third = await createVerifiedUser(t);
    expect(await firstServedAfterSlotsFree(othersBrowser, third.email)).toBe('a');
  });

  it('from a new browser giving the password the account last signed in with here goes ahead; a wrong one, or after a password change, waits', async () => {
    const user = await createVerifiedUser(t);
    expect((await signIn(freshClient(t.app), user.email)).statusCode).toBe(200);
    expect(await firstServedAfterSlotsFree(freshClient(t.app), user.email)).toBe('sign-in');
    expect(
      await firstServedAfterSlotsFree(freshClient(t.app), user.email, 'Wrong-Pass-1', 401),
    ).toBe('a');
    // Another password hash (a change or reset, on any instance) voids what this one noted.
    const changed = 'Changed-Pass-2026!';
    await t.pool.query('update users set password_hash = $2 where id = $1', [
      user.id,
      await hashPassword(changed, t.config.passwordCost),
    ]);
    expect(await firstServedAfterSlotsFree(freshClient(t.app), user.email, changed)).toBe('a');
  });
});
