/**
 * Issue 38 §4: recovery codes (NIST SP 800-63B-4 §3.1.2 look-up secrets; ASVS 5.0 6.5.1–6.5.4).
 * Ten one-time codes come with the authenticator app, shown once and stored hashed; each stands in
 * once for a code wherever one is asked (the sign-in's second step, a sensitive change), counted
 * as a code is when wrong; a new set voids the old one. And the verify page's link check, which
 * answers whether a link is usable without using it.
 */
import { describe, expect, it } from 'vitest';
import { totpCode } from '../../src/server/auth/totp';
import { SECOND_FACTOR_NEEDED } from '../../src/server/auth/secondFactor';
import { RATE_LIMITS } from '../../src/server/auth/routeHelpers';
import { previousStepCode } from '../totp';
import { freshClient, lastLink, PASSWORD, signedIn, uniqueEmail } from './authHelpers';
import { testAppForBlock, type TestClient } from './testApp';

const API = '/exchange/api/web';
const CODE_SHAPE = /^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/;

describe('recovery codes (issue 38 §4)', () => {
  const t = testAppForBlock();

  /** A signed-in user who turned the authenticator app on; its codes as the answer gave them. */
  async function withApp() {
    const user = await signedIn(t);
    const start = await user.client.post(`${API}/user/2fa`, { password: user.password });
    const { secret } = start.json() as { secret: string };
    const turnedOn = await user.client.request('PATCH', `${API}/user/2fa`, {
      json: { totpCode: await previousStepCode(secret) },
    });
    expect(turnedOn.statusCode, turnedOn.body).toBe(200);
    const { enabled, recoveryCodes } = turnedOn.json() as {
      enabled: boolean;
      recoveryCodes: string[];
    };
    expect(enabled).toBe(true);
    return { ...user, secret, codes: recoveryCodes };
  }

  const signIn = (email: string, second: Record<string, string>, client = freshClient(t.app)) =>
    client.post(`${API}/auth/signin`, { email, password: PASSWORD, ...second });

  async function failures(userId: string): Promise<number> {
    const result = await t.pool.query<{ n: number }>(
      'select second_factor_failures as n from users where id = $1',
      [userId],
    );
    return result.rows[0]!.n;
  }

  async function codesLeft(client: TestClient): Promise<number> {
    return (await client.get(`${API}/user/profile`)).json().recoveryCodesLeft as number;
  }

  it('turning the app on gives ten distinct codes, shown once and stored only as salted scrypt hashes', async () => {
    const { client, id, codes } = await withApp();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(CODE_SHAPE);
    expect(await codesLeft(client)).toBe(10);

    const stored = await t.pool.query<{ code_hash: string }>(
      'select code_hash from recovery_codes where user_id = $1',
      [id],
    );
    expect(stored.rows).toHaveLength(10);
    const text = stored.rows.map((row) => row.code_hash).join('\n');
    for (const code of codes) {
      expect(text).not.toContain(code);
      expect(text).not.toContain(code.replace('-', ''));
    }
    for (const { code_hash } of stored.rows) expect(code_hash).toMatch(/^scrypt\$\d+\$8\$1\$/);
    // The answer that showed them is the only one: the profile and the state name none.
    expect((await client.get(`${API}/user/profile`)).body).not.toContain(codes[0]!);
    expect((await client.get(`${API}/user/2fa/state`)).json()).toEqual({ enabled: true });
  });

  it('a code signs in once and only once; using it is audited and tells the owner how many remain', async () => {
    const { client, email, id, codes } = await withApp();
    const step = await signIn(email, {});
    expect(step.json()).toEqual({
      authStatus: 'TwoFactorRequired',
      methods: ['totp', 'recovery_code'],
    });

    const browser = freshClient(t.app);
    const first = await signIn(email, { recoveryCode: codes[0]! }, browser);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().authStatus).toBe('AuthComplete');
    expect((await browser.get(`${API}/auth/signin`)).json().status).toBe('Authenticated');

    const again = await signIn(email, { recoveryCode: codes[0]! });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({
      errorMessage: expect.stringMatching(/recovery code is not right, or it was used already/),
      code: 'invalid_credentials',
      errors: { recoveryCode: expect.any(String) },
    });
    // Counted against the account as a wrong code is.
    expect(await failures(id)).toBe(1);
    expect(await codesLeft(client)).toBe(9);

    const audit = await t.pool.query<{ detail: { remaining: number } }>(
      `select detail from audit_log where action = '2fa.recovery-code-used' and actor_user_id = $1`,
      [id],
    );
    expect(audit.rows.map((row) => row.detail)).toEqual([{ remaining: 9 }]);
    const told = t.mailer
      .outbox()
      .filter((message) => message.to === email && /recovery code was used/.test(message.subject));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('9 unused recovery codes remain');
    expect(told[0]!.text).not.toContain(codes[0]!);
    const signins = await t.pool.query<{ detail: { method: string } }>(
      `select detail from audit_log where action = 'signin' and actor_user_id = $1`,
      [id],
    );
    expect(signins.rows.map((row) => row.detail.method)).toContain('recovery-code');
  });

  it('a code typed in capitals, with spaces and without its hyphen, still matches; a right one resets the count', async () => {
    const { email, id, codes, secret } = await withApp();
    const wrong = await signIn(email, { recoveryCode: 'zzzzz-zzzzz' });
    expect(wrong.statusCode).toBe(401);
    expect(await failures(id)).toBe(1);
    const typed = ` ${codes[3]!.replace('-', ' ').toUpperCase()} `;
    expect((await signIn(email, { recoveryCode: typed })).statusCode).toBe(200);
    expect(await failures(id)).toBe(0);
    // Not both at once.
    const both = await signIn(email, { recoveryCode: codes[4]!, totpCode: totpCode(secret) });
    expect(both.statusCode).toBe(400);
  });

  it('the same code sent twice at once signs in once', async () => {
    const { email, codes } = await withApp();
    const answers = await Promise.all(
      [0, 1, 2].map(() => signIn(email, { recoveryCode: codes[5]! })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401, 401]);
  });

  it('a new set, after the password and a second factor, voids the old one', async () => {
    const { client, email, password, codes } = await withApp();
    const alone = await client.post(`${API}/user/2fa/recovery-codes`, { password });
    expect(alone.statusCode).toBe(403);
    expect(alone.json()).toEqual({
      errorMessage: SECOND_FACTOR_NEEDED,
      code: 'second_factor_required',
      errors: { secondFactor: 'totp recovery_code' },
    });

    // A recovery code answers where a code is asked: it confirms the change, and is spent.
    const renewed = await client.post(`${API}/user/2fa/recovery-codes`, {
      password,
      recoveryCode: codes[0]!,
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh = (renewed.json() as { recoveryCodes: string[] }).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
    expect(await codesLeft(client)).toBe(10);

    expect((await signIn(email, { recoveryCode: codes[1]! })).statusCode).toBe(401);
    expect((await signIn(email, { recoveryCode: fresh[0]! })).statusCode).toBe(200);
    expect(await codesLeft(client)).toBe(9);
  });

  it('turning the app off with a code voids the codes when no second factor is left', async () => {
    const { client, email, password, secret, codes } = await withApp();
    const off = await client.request('DELETE', `${API}/user/2fa`, {
      json: { password, totpCode: totpCode(secret) },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(await codesLeft(client)).toBe(0);
    // No second step any more: the password signs in; a new set is refused without a factor.
    expect((await signIn(email, {})).json().authStatus).toBe('AuthComplete');
    const refused = await client.post(`${API}/user/2fa/recovery-codes`, { password });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errorMessage).toMatch(/Turn on two-factor authentication first/);
    expect(codes).toHaveLength(10);
  });
});

describe('the verification link, checked before use (issue 38 §4)', () => {
  const t = testAppForBlock();

  async function signUp(email = uniqueEmail('check')) {
    await freshClient(t.app).post(`${API}/auth/signup`, { email, authOrigin: 'Clearing' });
    const link = lastLink(t, email, 'verify-email');
    return { email, token: link.searchParams.get('access_token')! };
  }

  const check = (client: TestClient, body: { token: string; email: string }) =>
    client.post(`${API}/auth/verify-email/check`, body);

  it('says a live link is usable without using it; once used, it says it is not', async () => {
    const { email, token } = await signUp();
    const client = freshClient(t.app);
    for (let i = 0; i < 2; i++) {
      const answer = await check(client, { token, email });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ usable: true });
    }
    const verified = await client.post(`${API}/auth/verify-email`, {
      token,
      email,
      password: PASSWORD,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await check(client, { token, email })).json()).toEqual({ usable: false });
  });

  it('answers unknown, expired, used and mismatched links alike', async () => {
    const client = freshClient(t.app);
    const live = await signUp();
    const expired = await signUp();
    await t.pool.query(
      `update auth_tokens set expires_at = now() - interval '1 second'
        where user_id = (select id from users where email = $1)`,
      [expired.email],
    );
    const answers = [
      await check(client, { token: 'no-such-token', email: live.email }),
      await check(client, expired),
      await check(client, { token: live.token, email: uniqueEmail('other') }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe('{"usable":false}');
    }
    // A new link retires the old one.
    const again = await signUp(live.email);
    expect((await check(client, live)).json()).toEqual({ usable: false });
    expect((await check(client, again)).json()).toEqual({ usable: true });
  });

  it('is limited per address as the verification is', async () => {
    const client = freshClient(t.app);
    const body = { token: 'no-such-token', email: uniqueEmail('limit') };
    for (let i = 0; i < RATE_LIMITS.verify; i++) {
      expect((await check(client, body)).statusCode).toBe(200);
    }
    const over = await check(client, body);
    expect(over.statusCode).toBe(429);
    expect(over.json().errorMessage).toMatch(/Too many attempts/);
  });
});
