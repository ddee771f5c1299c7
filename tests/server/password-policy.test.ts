import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedUser, freshClient, lastLink, signedIn, uniqueEmail } from './authHelpers';
import { createTestApp, type TestApp } from './testApp';

const API = '/exchange/api/web';
/** 100 characters, every one of them significant. */
const LONG = 'The quick brown fox 7 jumps over the lazy dog; '.repeat(3).slice(0, 100);

describe('new passwords (docs/decisions.md, Passwords and sessions: 8+ characters, not common, 64+ kept whole)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  async function verifyToken(email: string) {
    const client = freshClient(t.app);
    await client.post(`${API}/auth/signup`, { email, authOrigin: 'Clearing' });
    return { client, token: lastLink(t, email, 'verify-email').searchParams.get('access_token') };
  }

  it('refuses, on verification, a password under 8 characters and a common one, with the spec’s message', async () => {
    const email = uniqueEmail();
    const { client, token } = await verifyToken(email);
    // 'abcde1' passes the specification's own weak rule (6 characters, two classes).
    for (const password of ['abcde1', 'Abcde1!', 'Password1', 'qwerty123', 'Iloveyou2']) {
      const refused = await client.post(`${API}/auth/verify-email`, { token, email, password });
      expect(refused.statusCode, password).toBe(400);
      expect(refused.json().errorMessage).toBe('Password is too weak');
    }
    // The token was not used up by the refusals.
    const accepted = await client.post(`${API}/auth/verify-email`, {
      token,
      email,
      password: 'Lantern-Quay-48',
    });
    expect(accepted.statusCode).toBe(200);
  });

  it('keeps a 100-character password whole: it signs in, and cut to 64 or 72 it does not', async () => {
    const email = uniqueEmail();
    const { client, token } = await verifyToken(email);
    expect(
      (await client.post(`${API}/auth/verify-email`, { token, email, password: LONG })).statusCode,
    ).toBe(200);
    const signin = (password: string) =>
      freshClient(t.app).post(`${API}/auth/signin`, { email, password });
    expect((await signin(LONG)).json().authStatus).toBe('AuthComplete');
    // 72 bytes is where bcrypt stops reading; 64 what some forms cap at.
    for (const cut of [LONG.slice(0, 64), LONG.slice(0, 72), LONG.slice(0, 99)]) {
      expect((await signin(cut)).statusCode).toBe(401);
    }
  });

  it('applies the same rules to a password reset, and keeps a long one whole', async () => {
    const user = await createVerifiedUser(t);
    const client = freshClient(t.app);
    await client.post(`${API}/auth/password/reset/request`, {
      email: user.email,
      authOrigin: 'Clearing',
    });
    const token = lastLink(t, user.email, 'reset-password').searchParams.get('access_token');
    for (const password of ['Abc123', 'Password123']) {
      const refused = await client.post(`${API}/auth/password/reset`, {
        token,
        userId: user.id,
        password,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errorMessage).toBe('Password is too weak');
    }
    const reset = await client.post(`${API}/auth/password/reset`, {
      token,
      userId: user.id,
      password: LONG,
    });
    expect(reset.statusCode).toBe(200);
    const signin = (password: string) =>
      freshClient(t.app).post(`${API}/auth/signin`, { email: user.email, password });
    expect((await signin(LONG)).statusCode).toBe(200);
    expect((await signin(LONG.slice(0, 64))).statusCode).toBe(401);
  });

  // Issue 27 §3 (ASVS 6.2.11): everywhere a password is set, one made of the account's own words
  // is refused, with the specification's message and one sentence saying why.
  const OWN_WORDS =
    'Password is too weak. It is made mostly of your email address, your name, or the name of your firm or of this service.';

  // Issue 39 §4: the checks read a password as people do, so a year, a symbol, leetspeak,
  // lookalike letters of another script and fullwidth forms do not hide a common password or the
  // account's own words.
  it('refuses, on verification, common passwords and own words however they are written', async () => {
    const email = uniqueEmail('henry.walker');
    const { client, token } = await verifyToken(email);
    const refusals: Record<string, string> = {};
    for (const password of [
      'Password123!',
      'Welcome2026!',
      'Qwerty123!',
      'P@ssw0rd2026',
      'Summer2026!',
      'Passw\u043Erd2026!', // a Cyrillic о in place of the o
      '\uFF30\uFF41\uFF53\uFF53\uFF57\uFF4F\uFF52\uFF44\uFF11\uFF12\uFF13', // fullwidth
      'N0rthst4r-Cl34ring!',
      'H3nry-W4lker-2026!',
    ]) {
      const refused = await client.post(`${API}/auth/verify-email`, { token, email, password });
      refusals[password] = `${refused.statusCode} ${refused.json().errorMessage}`;
    }
    expect(refusals).toEqual({
      'Password123!': '400 Password is too weak',
      'Welcome2026!': '400 Password is too weak',
      'Qwerty123!': '400 Password is too weak',
      'P@ssw0rd2026': '400 Password is too weak',
      'Summer2026!': '400 Password is too weak',
      'Passw\u043Erd2026!': '400 Password is too weak',
      '\uFF30\uFF41\uFF53\uFF53\uFF57\uFF4F\uFF52\uFF44\uFF11\uFF12\uFF13':
        '400 Password is too weak',
      'N0rthst4r-Cl34ring!': `400 ${OWN_WORDS}`,
      'H3nry-W4lker-2026!': `400 ${OWN_WORDS}`,
    });
    // The demo sign-ins' passwords stay good ones.
    const accepted = await client.post(`${API}/auth/verify-email`, {
      token,
      email,
      password: 'Demo-Pass-2026!',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('refuses, on verification, the email as the password (carol1@sec.example) and the service’s words', async () => {
    const email = 'carol1@sec.example';
    const { client, token } = await verifyToken(email);
    for (const password of [
      email,
      'Carol1@Sec.Example',
      'Carol1-2026!',
      'Northstar2026!',
      'Clearing-Portal-1',
    ]) {
      const refused = await client.post(`${API}/auth/verify-email`, { token, email, password });
      expect(refused.statusCode, password).toBe(400);
      expect(refused.json(), password).toMatchObject({
        errorMessage: OWN_WORDS,
        errors: { password: OWN_WORDS },
      });
    }
    const accepted = await client.post(`${API}/auth/verify-email`, {
      token,
      email,
      password: 'Carol-Lantern-48',
    });
    expect(accepted.statusCode).toBe(200);
  });

  it('refuses the account’s email on a reset once the link is taken, the link staying usable', async () => {
    const user = await createVerifiedUser(t);
    const client = freshClient(t.app);
    await client.post(`${API}/auth/password/reset/request`, {
      email: user.email,
      authOrigin: 'Clearing',
    });
    const token = lastLink(t, user.email, 'reset-password').searchParams.get('access_token');
    const refused = await client.post(`${API}/auth/password/reset`, {
      token,
      userId: user.id,
      password: `${user.email.toUpperCase()}!`,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errorMessage).toBe(OWN_WORDS);
    // Without a valid link the account is never looked at: the answer is the link's.
    const stranger = await client.post(`${API}/auth/password/reset`, {
      token: 'not-a-token',
      userId: user.id,
      password: user.email,
    });
    expect(stranger.json().errorMessage).toMatch(/link is invalid/);
    const reset = await client.post(`${API}/auth/password/reset`, {
      token,
      userId: user.id,
      password: 'Quay-Harbour-77!',
    });
    expect(reset.statusCode).toBe(200);
  });

  it('refuses the account’s email and names on a password change from the profile', async () => {
    const user = await signedIn(t);
    await t.pool.query(`update users set details = $1 where id = $2`, [
      { firstName: 'Grace', lastName: 'Hopper', phoneNumber: '+12125550142', approved: false },
      user.id,
    ]);
    for (const newPassword of [user.email, 'Grace-Hopper-1906']) {
      const refused = await user.client.post(`${API}/user/password`, {
        currentPassword: user.password,
        newPassword,
        endOtherSessions: false,
      });
      expect(refused.statusCode, newPassword).toBe(400);
      expect(refused.json().errors, newPassword).toEqual({ newPassword: OWN_WORDS });
    }
    const changed = await user.client.post(`${API}/user/password`, {
      currentPassword: user.password,
      newPassword: 'Grace-Lantern-48',
      endOtherSessions: false,
    });
    expect(changed.statusCode, changed.body).toBe(200);
  });
});
