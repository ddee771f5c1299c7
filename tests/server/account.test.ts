import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/server/auth/totp';
import { PASSKEY_SIGNIN_COOKIE } from '../../src/server/plugins/session';
import {
  createVerifiedUser,
  enableTwoFactor,
  freshClient,
  lastLink,
  signedIn,
  uniqueEmail,
} from './authHelpers';
import { SoftAuthenticator } from './softAuthenticator';
import { createTestApp, TestClient, type TestApp } from './testApp';

const API = '/exchange/api/web';
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

describe('the profile page’s calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  /** A client whose requests come from `remoteAddress` with `userAgent`. */
  function clientFrom(remoteAddress: string, userAgent: string): TestClient {
    const wrapped = {
      inject: (options: { headers?: Record<string, string> }) =>
        t.app.inject({
          ...options,
          remoteAddress,
          headers: { ...options.headers, 'user-agent': userAgent },
        }),
      backgroundJobs: t.app.backgroundJobs,
    } as unknown as typeof t.app;
    return new TestClient(wrapped);
  }

  async function signIn(client: TestClient, email: string, password: string) {
    const response = await client.post(`${API}/auth/signin`, { email, password });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  const auditCount = async (action: string, userId: string) =>
    (
      await t.pool.query<{ n: number }>(
        'select count(*)::int as n from audit_log where action = $1 and actor_user_id = $2',
        [action, userId],
      )
    ).rows[0]!.n;

  it('asks for a session on every call, before reading the body', async () => {
    const anon = freshClient(t.app);
    for (const [method, url] of [
      ['GET', '/user/profile'],
      ['GET', '/user/sessions'],
      ['POST', '/user/sessions/end-others'],
      ['DELETE', '/user/sessions/00000000-0000-4000-8000-000000000000'],
      ['POST', '/user/password'],
      ['POST', '/user/passkeys/options'],
      ['POST', '/user/reauth/passkey-options'],
      ['POST', '/user/passkeys'],
      ['DELETE', '/user/passkeys/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const response = await anon.request(method, `${API}${url}`, { json: { junk: true } });
      expect(response.statusCode, url).toBe(401);
      expect(response.json().errorMessage).toBe('Please sign in to view that content.');
    }
  });

  it('answers 4xx with a message for malformed bodies', async () => {
    const { client } = await signedIn(t);
    for (const [url, json] of [
      ['/user/password', { currentPassword: 1 }],
      ['/user/password', { currentPassword: 'a', newPassword: 'b' }],
      ['/user/passkeys/options', {}],
      ['/user/sessions/end-others', {}],
      ['/user/passkeys', { name: 'x', response: 'nope' }],
      ['/auth/signin/passkey', { response: {} }],
    ] as const) {
      const response = await client.post(`${API}${url}`, json);
      expect(response.statusCode, url).toBe(400);
      expect(typeof response.json().errorMessage).toBe('string');
    }
  });

  it('shows the profile: email, name, and how the user signs in', async () => {
    const { client, email, id } = await signedIn(t);
    await t.pool.query(
      `update users set details = '{"firstName":"Ada","lastName":"Byron","phoneNumber":"+12125550142","approved":false}' where id = $1`,
      [id],
    );
    const profile = await client.get(`${API}/user/profile`);
    expect(profile.json()).toEqual({
      email,
      firstName: 'Ada',
      lastName: 'Byron',
      totpEnabled: false,
      passkeys: [],
      recoveryCodesLeft: 0,
    });
  });

  describe('active sessions', () => {
    it('lists each session with its device and place, and ends one or all the others', async () => {
      const user = await createVerifiedUser(t);
      const laptop = clientFrom('127.0.0.1', CHROME_LINUX);
      const office = clientFrom('192.168.1.20', SAFARI_MAC);
      const abroad = clientFrom('203.0.113.9', CHROME_LINUX);
      // A public address the shipped DB-IP country data places in the United Kingdom.
      const travelling = clientFrom('81.2.69.142', CHROME_LINUX);
      for (const client of [laptop, office, abroad, travelling])
        await signIn(client, user.email, user.password);

      const answer = (await laptop.get(`${API}/user/sessions`)).json();
      const listed = answer.sessions;
      expect(listed).toHaveLength(4);
      expect(listed[0]).toMatchObject({
        current: true,
        device: 'Chrome 131 on Linux',
        place: 'This computer',
      });
      const places = listed.map((session: { place: string }) => session.place);
      expect(places).toContain('Local network (192.168.1.20)');
      // A documentation address the data has no place for reads as the address alone.
      expect(places).toContain('IP address 203.0.113.9');
      expect(places).toContain('United Kingdom (81.2.69.142)');
      // The data's licence (CC BY 4.0) asks for its credit beside the places.
      expect(answer.placesAttribution).toEqual({
        text: 'IP Geolocation by DB-IP',
        url: 'https://db-ip.com',
      });
      const safari = listed.find((s: { device: string }) => s.device === 'Safari 17 on macOS');
      expect(safari).toBeDefined();
      expect(listed.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
      // No hash or token leaves the server: the ids are the public ones.
      expect(JSON.stringify(listed)).not.toMatch(/id_hash|user_agent/);

      // Per-session sign-out, after the password again (ASVS 7.5.2): the office session ends,
      // the others go on.
      const end = (id: string, password = user.password) =>
        laptop.request('DELETE', `${API}/user/sessions/${id}`, { json: { password } });
      const unconfirmed = await end(safari.id, 'Wrong-Pass-1');
      expect(unconfirmed.json().errorMessage).toBe('Password is wrong');
      expect((await office.get(`${API}/user`)).statusCode).toBe(200);
      const ended = await end(safari.id);
      expect(ended.json()).toEqual({ endedSessions: 1 });
      expect((await office.get(`${API}/user`)).statusCode).toBe(401);
      expect((await abroad.get(`${API}/user`)).statusCode).toBe(200);
      expect((await end(safari.id)).statusCode).toBe(404);
      // This browser's own session is ended by Logout, not here.
      expect((await end(listed[0].id)).statusCode).toBe(400);

      // Sign out other sessions, after the password again.
      const refused = await laptop.post(`${API}/user/sessions/end-others`, { password: 'Nope-1' });
      expect(refused.json().errorMessage).toBe('Password is wrong');
      expect((await abroad.get(`${API}/user`)).statusCode).toBe(200);
      const others = await laptop.post(`${API}/user/sessions/end-others`, {
        password: user.password,
      });
      expect(others.json()).toEqual({ endedSessions: 2 });
      expect((await abroad.get(`${API}/user`)).statusCode).toBe(401);
      expect((await travelling.get(`${API}/user`)).statusCode).toBe(401);
      expect((await laptop.get(`${API}/user/sessions`)).json().sessions).toHaveLength(1);
      expect(await auditCount('sessions.ended', user.id)).toBe(2);
    });

    it('never ends another user’s session', async () => {
      const alice = await signedIn(t);
      const bob = await signedIn(t);
      const bobSession = (await bob.client.get(`${API}/user/sessions`)).json().sessions[0];
      const attempt = await alice.client.request(
        'DELETE',
        `${API}/user/sessions/${bobSession.id}`,
        {
          json: { password: alice.password },
        },
      );
      expect(attempt.statusCode).toBe(404);
      expect((await bob.client.get(`${API}/user`)).statusCode).toBe(200);
    });
  });

  describe('password change', () => {
    it('asks for the current password and applies the new-password rules', async () => {
      const { client, password } = await signedIn(t);
      const change = (body: object) =>
        client.post(`${API}/user/password`, { endOtherSessions: false, ...body });
      const wrong = await change({
        currentPassword: 'Wrong-Pass-1',
        newPassword: 'Lantern-Quay-48',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({
        errorMessage: 'Password is wrong',
        code: 'validation_failed',
        errors: { currentPassword: 'Password is wrong' },
      });
      for (const newPassword of ['Abc123', 'Password123']) {
        const weak = await change({ currentPassword: password, newPassword });
        expect(weak.statusCode).toBe(400);
        expect(weak.json()).toEqual({
          errorMessage: 'Password is too weak',
          code: 'validation_failed',
          errors: { newPassword: 'Password is too weak' },
        });
      }
    });

    it('changes it, keeping or ending the other sessions as asked (ASVS 7.4.3)', async () => {
      const user = await createVerifiedUser(t);
      const here = freshClient(t.app);
      const there = freshClient(t.app);
      await signIn(here, user.email, user.password);
      await signIn(there, user.email, user.password);

      const kept = await here.post(`${API}/user/password`, {
        currentPassword: user.password,
        newPassword: 'Lantern-Quay-48',
        endOtherSessions: false,
      });
      expect(kept.json()).toEqual({ endedSessions: 0 });
      expect((await there.get(`${API}/user`)).statusCode).toBe(200);

      const ended = await here.post(`${API}/user/password`, {
        currentPassword: 'Lantern-Quay-48',
        newPassword: 'Harbour-Kite-93',
        endOtherSessions: true,
      });
      expect(ended.json()).toEqual({ endedSessions: 1 });
      expect((await there.get(`${API}/user`)).statusCode).toBe(401);
      expect((await here.get(`${API}/user`)).statusCode).toBe(200);

      const signin = (password: string) =>
        freshClient(t.app).post(`${API}/auth/signin`, { email: user.email, password });
      expect((await signin(user.password)).statusCode).toBe(401);
      expect((await signin('Lantern-Quay-48')).statusCode).toBe(401);
      expect((await signin('Harbour-Kite-93')).statusCode).toBe(200);
      expect(await auditCount('password.changed', user.id)).toBe(2);
    });

    it('a password reset ends every session unless the user keeps them', async () => {
      const user = await createVerifiedUser(t);
      const session = freshClient(t.app);
      await signIn(session, user.email, user.password);
      const reset = async (password: string, endOtherSessions?: boolean) => {
        const anon = freshClient(t.app);
        await anon.post(`${API}/auth/password/reset/request`, {
          email: user.email,
          authOrigin: 'Clearing',
        });
        const token = lastLink(t, user.email, 'reset-password').searchParams.get('access_token');
        const body = { token, userId: user.id, password, endOtherSessions };
        return anon.post(`${API}/auth/password/reset`, body);
      };
      expect((await reset('Lantern-Quay-48', false)).statusCode).toBe(200);
      expect((await session.get(`${API}/user`)).statusCode).toBe(200);
      expect((await reset('Harbour-Kite-93')).statusCode).toBe(200);
      expect((await session.get(`${API}/user`)).statusCode).toBe(401);
    });
  });

  describe('two-factor', () => {
    it('turns the authenticator app off only with the password and a current code', async () => {
      const { client, password, id } = await signedIn(t);
      const secret = await enableTwoFactor(client, password);
      const refused = await client.request('DELETE', `${API}/user/2fa`, {
        json: { password: 'Wrong-Pass-1', totpCode: totpCode(secret) },
      });
      expect(refused.json().errorMessage).toBe('Password is wrong');
      expect((await client.get(`${API}/user/2fa/state`)).json()).toEqual({ enabled: true });
      const off = await client.request('DELETE', `${API}/user/2fa`, {
        json: { password, totpCode: totpCode(secret) },
      });
      expect(off.json()).toEqual({ enabled: false });
      expect((await client.get(`${API}/user/profile`)).json().totpEnabled).toBe(false);
      expect(await auditCount('2fa.disabled', id)).toBe(1);
      expect(await auditCount('reauth.failed', id)).toBe(1);
    });
  });

  describe('passkeys', () => {
    async function addPasskey(
      client: TestClient,
      password: string,
      name = 'Laptop',
      secondFactor: { totpCode?: string } = {},
    ) {
      const authenticator = new SoftAuthenticator(t.config.publicUrl);
      const options = await client.post(`${API}/user/passkeys/options`, {
        password,
        ...secondFactor,
      });
      expect(options.statusCode, options.body).toBe(200);
      const added = await client.post(`${API}/user/passkeys`, {
        name,
        response: authenticator.register(options.json()),
      });
      expect(added.statusCode, added.body).toBe(200);
      return { authenticator, passkey: added.json() };
    }

    it('enrols a passkey only after the password, and only for this origin', async () => {
      const { client, password, id } = await signedIn(t);
      const wrong = await client.post(`${API}/user/passkeys/options`, { password: 'Nope-Pass-1' });
      expect(wrong.json().errorMessage).toBe('Password is wrong');
      // An answer with no challenge waiting (no password given) is refused.
      const stray = new SoftAuthenticator(t.config.publicUrl);
      const unasked = await client.post(`${API}/user/passkeys`, {
        name: 'Stray',
        response: stray.register({ challenge: 'bm90LWFza2Vk' }),
      });
      expect(unasked.statusCode).toBe(400);
      // A phishing site's origin is refused.
      const options = (await client.post(`${API}/user/passkeys/options`, { password })).json();
      expect(options.rp).toEqual({ id: 'localhost', name: 'Northstar Clearing' });
      const phished = await client.post(`${API}/user/passkeys`, {
        name: 'Phished',
        response: stray.register(options, { origin: 'https://northstar-clearing.example.evil' }),
      });
      expect(phished.statusCode).toBe(400);

      const { passkey } = await addPasskey(client, password, 'Work laptop');
      expect(passkey).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
      const profile = (await client.get(`${API}/user/profile`)).json();
      expect(profile.passkeys).toEqual([passkey]);
      expect(await auditCount('passkey.added', id)).toBe(1);
    });

    it('signs in with password then passkey; the challenge serves once and only this browser', async () => {
      const { client, password, email, id } = await signedIn(t);
      const { authenticator } = await addPasskey(client, password);

      const browser = freshClient(t.app);
      const step1 = await browser.post(`${API}/auth/signin`, { email, password });
      const first = step1.json();
      expect(first).toMatchObject({ authStatus: 'TwoFactorRequired', methods: ['passkey'] });
      expect(first.passkeyOptions.allowCredentials[0].id).toBe(
        authenticator.credentialId.toString('base64url'),
      );
      const cookie = step1.cookies.find((c) => c.name === PASSKEY_SIGNIN_COOKIE)!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      expect(cookie.path).toBe('/exchange/api/web/auth/signin');
      // No session yet.
      expect((await browser.get(`${API}/user`)).statusCode).toBe(401);

      // Another browser cannot answer this browser's challenge.
      const stranger = freshClient(t.app);
      const stolen = await stranger.post(`${API}/auth/signin/passkey`, {
        response: authenticator.authenticate(first.passkeyOptions),
      });
      expect(stolen.statusCode).toBe(401);

      const answer = authenticator.authenticate(first.passkeyOptions);
      const step2 = await browser.post(`${API}/auth/signin/passkey`, { response: answer });
      expect(step2.statusCode, step2.body).toBe(200);
      expect(step2.json()).toMatchObject({ authStatus: 'AuthComplete', user: { id, email } });
      expect((await browser.get(`${API}/user`)).statusCode).toBe(200);
      const used = (await browser.get(`${API}/user/profile`)).json().passkeys[0];
      expect(used.lastUsedAt).not.toBeNull();

      // A replay of the same answer finds no challenge waiting.
      const replayer = freshClient(t.app);
      await replayer.post(`${API}/auth/signin`, { email, password });
      const replay = await replayer.post(`${API}/auth/signin/passkey`, { response: answer });
      expect(replay.statusCode).toBe(401);
      expect(replay.json().errorMessage).toMatch(/passkey could not be verified/);
    });

    it('with both an app and a passkey, either answers the second step', async () => {
      const { client, password, email } = await signedIn(t);
      const secret = await enableTwoFactor(client, password);
      // Adding the passkey takes the current step's code; the sign-in takes the next step's.
      const { authenticator } = await addPasskey(client, password, 'Laptop', {
        totpCode: totpCode(secret),
      });

      const withCode = freshClient(t.app);
      const asked = (await withCode.post(`${API}/auth/signin`, { email, password })).json();
      expect(asked.methods).toEqual(['totp', 'recovery_code', 'passkey']);
      const coded = await withCode.post(`${API}/auth/signin`, {
        email,
        password,
        totpCode: totpCode(secret, Date.now() + 30_000),
      });
      expect(coded.json().authStatus).toBe('AuthComplete');

      const withKey = freshClient(t.app);
      const options = (await withKey.post(`${API}/auth/signin`, { email, password })).json();
      const keyed = await withKey.post(`${API}/auth/signin/passkey`, {
        response: authenticator.authenticate(options.passkeyOptions),
      });
      expect(keyed.json().authStatus).toBe('AuthComplete');
    });

    it('a passkey-only account refuses a made-up code; removal asks for the password and the passkey', async () => {
      const { client, password, email, id } = await signedIn(t);
      const { passkey, authenticator } = await addPasskey(client, password);
      const guess = await freshClient(t.app).post(`${API}/auth/signin`, {
        email,
        password,
        totpCode: '123456',
      });
      expect(guess.statusCode).toBe(401);

      const refused = await client.request('DELETE', `${API}/user/passkeys/${passkey.id}`, {
        json: { password: 'Wrong-Pass-1' },
      });
      expect(refused.json().errorMessage).toBe('Password is wrong');
      const options = (await client.post(`${API}/user/reauth/passkey-options`)).json();
      const removed = await client.request('DELETE', `${API}/user/passkeys/${passkey.id}`, {
        json: { password, passkey: authenticator.authenticate(options) },
      });
      expect(removed.statusCode).toBe(200);
      expect((await client.get(`${API}/user/profile`)).json().passkeys).toEqual([]);
      const plain = await freshClient(t.app).post(`${API}/auth/signin`, { email, password });
      expect(plain.json().authStatus).toBe('AuthComplete');
      expect(await auditCount('passkey.removed', id)).toBe(1);
    });
  });

  it('keeps unknown emails out of every answer', async () => {
    // The sign-in's answers for a wrong password are the same with or without passkeys.
    const { client, password, email } = await signedIn(t);
    const options = (await client.post(`${API}/user/passkeys/options`, { password })).json();
    await client.post(`${API}/user/passkeys`, {
      name: 'Key',
      response: new SoftAuthenticator(t.config.publicUrl).register(options),
    });
    const withPasskey = await freshClient(t.app).post(`${API}/auth/signin`, {
      email,
      password: 'Wrong-Pass-1',
    });
    const unknown = await freshClient(t.app).post(`${API}/auth/signin`, {
      email: uniqueEmail(),
      password: 'Wrong-Pass-1',
    });
    expect(withPasskey.statusCode).toBe(401);
    expect(withPasskey.json()).toEqual(unknown.json());
    expect(withPasskey.cookies.map((c) => c.name)).not.toContain(PASSKEY_SIGNIN_COOKIE);
  });

  describe('email change', () => {
    it('asks for the password, confirms from the new address, tells the old one', async () => {
      const { client, password, email, id } = await signedIn(t);
      const newEmail = uniqueEmail('moved');
      const wrong = await client.post(`${API}/user/email`, { password: 'Nope-Pass-1', newEmail });
      expect(wrong.json().errorMessage).toBe('Password is wrong');
      const same = await client.post(`${API}/user/email`, { password, newEmail: email });
      expect(same.statusCode).toBe(400);
      const bad = await client.post(`${API}/user/email`, { password, newEmail: 'not-an-email' });
      expect(bad.json().errorMessage).toBe('Invalid email');

      const asked = await client.post(`${API}/user/email`, { password, newEmail });
      expect(asked.json()).toEqual({});
      // Nothing changes until the new address confirms.
      expect((await client.get(`${API}/user/profile`)).json().email).toBe(email);
      const notice = t.mailer
        .outbox()
        .filter((m) => m.to === email)
        .at(-1)!;
      expect(notice.subject).toMatch(/change of your .* sign-in email was requested/);
      expect(notice.text).not.toContain(newEmail);
      const link = lastLink(t, newEmail, 'access_token');
      expect(link.pathname).toBe('/exchange/dashboard/profile');
      const token = link.searchParams.get('access_token');

      // The link works in any browser, once.
      const elsewhere = freshClient(t.app);
      const confirmed = await elsewhere.post(`${API}/auth/email/confirm`, { token });
      expect(confirmed.json()).toEqual({ email: newEmail });
      const reused = await elsewhere.post(`${API}/auth/email/confirm`, { token });
      expect(reused.statusCode).toBe(400);
      expect((await client.get(`${API}/user/profile`)).json().email).toBe(newEmail);
      const signin = (address: string) =>
        freshClient(t.app).post(`${API}/auth/signin`, { email: address, password });
      expect((await signin(newEmail)).statusCode).toBe(200);
      expect((await signin(email)).statusCode).toBe(401);
      expect(
        t.mailer
          .outbox()
          .filter((m) => m.to === email)
          .at(-1)!.subject,
      ).toMatch(/sign-in email has changed/);
      expect(await auditCount('email.changed', id)).toBe(1);
    });

    it('answers the same for an address that has an account, and changes nothing', async () => {
      const { client, password, email } = await signedIn(t);
      const other = await createVerifiedUser(t);
      const asked = await client.post(`${API}/user/email`, { password, newEmail: other.email });
      expect(asked.json()).toEqual({});
      const toOther = t.mailer
        .outbox()
        .filter((m) => m.to === other.email)
        .at(-1)!;
      expect(toOther.subject).toMatch(/already has a .* account/);
      expect(toOther.links).toEqual([]);
      expect(toOther.text).not.toContain(email);
      expect((await client.get(`${API}/user/profile`)).json().email).toBe(email);
    });
  });
});
