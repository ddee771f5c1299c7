/**
 * Links that outlive the owner's recovery (issue 39 §2): a password reset or change, turning the
 * second factor on or off and a completed email change void every outstanding emailed link of
 * the account (email change, reset, invitations), on every instance.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { INVALID_LINK } from '../../src/server/auth/routeHelpers';
import { totpCode } from '../../src/server/auth/totp';
import {
  createVerifiedUser,
  enableTwoFactor,
  freshClient,
  lastLink,
  pngBytes,
  postForm,
  signedIn,
  uniqueEmail,
  type Part,
} from './authHelpers';
import { SoftAuthenticator } from './softAuthenticator';
import { createTestApp, type TestApp, type TestClient } from './testApp';

const API = '/exchange/api/web';

describe('links that outlive the owner’s recovery', () => {
  let t: TestApp;
  /** A second instance on the same database, as behind a load balancer. */
  let other: FastifyInstance;
  beforeAll(async () => {
    t = await createTestApp();
    other = await buildApp({ config: t.config, pool: t.pool, mailer: t.mailer, logger: false });
    await other.ready();
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  /** Asks for a reset link by email and returns its token. */
  async function resetToken(email: string): Promise<string> {
    const asked = await freshClient(t.app).post(`${API}/auth/password/reset/request`, {
      email,
      authOrigin: 'Clearing',
    });
    expect(asked.statusCode).toBe(200);
    return lastLink(t, email, 'reset-password').searchParams.get('access_token')!;
  }

  const resetWith = (client: TestClient, token: string, userId: string, password: string) =>
    client.post(`${API}/auth/password/reset`, { token, userId, password });

  /** An intruder holding the password asks for the email to move to their own address. */
  async function pendingEmailChange(intruder: TestClient, password: string) {
    const newEmail = uniqueEmail('intruder');
    const asked = await intruder.post(`${API}/user/email`, { password, newEmail });
    expect(asked.statusCode, asked.body).toBe(200);
    const token = lastLink(t, newEmail, 'access_token').searchParams.get('access_token')!;
    return { newEmail, token };
  }

  const cancellations = async (userId: string) =>
    (
      await t.pool.query<{ detail: { count: number; reason: string } }>(
        `select detail from audit_log where action = 'links.cancelled' and actor_user_id = $1
          order by seq`,
        [userId],
      )
    ).rows.map((row) => row.detail);

  it('a reset voids the email change an intruder started, on every instance', async () => {
    const owner = await signedIn(t);
    const intruder = freshClient(t.app);
    const signin = await intruder.post(`${API}/auth/signin`, {
      email: owner.email,
      password: owner.password,
    });
    expect(signin.statusCode).toBe(200);
    const change = await pendingEmailChange(intruder, owner.password);
    // The owner was told at their own address, and how to stop it.
    const notice = t.mailer
      .outbox()
      .filter((m) => m.to === owner.email)
      .at(-1)!;
    expect(notice.subject).toMatch(/sign-in email was requested/);
    expect(notice.text).toMatch(/reset your password at once: that cancels the change/);

    // The owner resets through this instance (ending every session by default)…
    const token = await resetToken(owner.email);
    const reset = await resetWith(freshClient(t.app), token, owner.id, 'Lantern-Quay-48');
    expect(reset.statusCode, reset.body).toBe(200);

    // …and the intruder's link, tried on the other instance, no longer confirms.
    const confirmed = await freshClient(other).post(`${API}/auth/email/confirm`, {
      token: change.token,
    });
    expect(confirmed.statusCode).toBe(400);
    expect(confirmed.json().errorMessage).toBe(INVALID_LINK);
    const email = await t.pool.query<{ email: string }>('select email from users where id = $1', [
      owner.id,
    ]);
    expect(email.rows[0]!.email).toBe(owner.email);
    expect(await cancellations(owner.id)).toEqual([{ count: 1, reason: 'password.reset' }]);
  });

  it('a password change voids a reset link asked for before it', async () => {
    const owner = await signedIn(t);
    const stale = await resetToken(owner.email);
    const changed = await owner.client.post(`${API}/user/password`, {
      currentPassword: owner.password,
      newPassword: 'Lantern-Quay-48',
      endOtherSessions: false,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const reset = await resetWith(freshClient(t.app), stale, owner.id, 'Harbour-Kite-93');
    expect(reset.statusCode).toBe(400);
    expect(reset.json().errorMessage).toBe(INVALID_LINK);
    const signin = (password: string) =>
      freshClient(t.app).post(`${API}/auth/signin`, { email: owner.email, password });
    expect((await signin('Harbour-Kite-93')).statusCode).toBe(401);
    expect((await signin('Lantern-Quay-48')).statusCode).toBe(200);
    // A link asked for after the change works.
    const fresh = await resetToken(owner.email);
    expect(
      (await resetWith(freshClient(t.app), fresh, owner.id, 'Harbour-Kite-93')).json(),
    ).toEqual({});
    expect(await cancellations(owner.id)).toEqual([{ count: 1, reason: 'password.changed' }]);
  });

  it('a password change voids a pending email change', async () => {
    const owner = await signedIn(t);
    const change = await pendingEmailChange(owner.client, owner.password);
    const changed = await owner.client.post(`${API}/user/password`, {
      currentPassword: owner.password,
      newPassword: 'Lantern-Quay-48',
      endOtherSessions: true,
    });
    expect(changed.statusCode).toBe(200);
    const confirmed = await freshClient(t.app).post(`${API}/auth/email/confirm`, {
      token: change.token,
    });
    expect(confirmed.statusCode).toBe(400);
  });

  it('turning the authenticator app on, and off, voids the links outstanding', async () => {
    const owner = await signedIn(t);
    const beforeOn = await resetToken(owner.email);
    const secret = await enableTwoFactor(owner.client, owner.password);
    const refusedOn = await resetWith(freshClient(t.app), beforeOn, owner.id, 'Lantern-Quay-48');
    expect(refusedOn.json().errorMessage).toBe(INVALID_LINK);

    const beforeOff = await resetToken(owner.email);
    const off = await owner.client.request('DELETE', `${API}/user/2fa`, {
      json: { password: owner.password, totpCode: totpCode(secret) },
    });
    expect(off.statusCode, off.body).toBe(200);
    const refusedOff = await resetWith(freshClient(t.app), beforeOff, owner.id, 'Lantern-Quay-48');
    expect(refusedOff.json().errorMessage).toBe(INVALID_LINK);
    expect((await cancellations(owner.id)).map((c) => c.reason)).toEqual([
      '2fa.enabled',
      '2fa.disabled',
    ]);
  });

  it('adding a passkey, and removing it, voids the links outstanding', async () => {
    const owner = await signedIn(t);
    const beforeAdd = await resetToken(owner.email);
    const authenticator = new SoftAuthenticator(t.config.publicUrl);
    const options = await owner.client.post(`${API}/user/passkeys/options`, {
      password: owner.password,
    });
    const added = await owner.client.post(`${API}/user/passkeys`, {
      name: 'Laptop',
      response: authenticator.register(options.json()),
    });
    expect(added.statusCode, added.body).toBe(200);
    const refusedAdd = await resetWith(freshClient(t.app), beforeAdd, owner.id, 'Lantern-Quay-48');
    expect(refusedAdd.json().errorMessage).toBe(INVALID_LINK);

    const beforeRemove = await resetToken(owner.email);
    const reauth = (await owner.client.post(`${API}/user/reauth/passkey-options`)).json();
    const removed = await owner.client.request(
      'DELETE',
      `${API}/user/passkeys/${added.json().id}`,
      {
        json: { password: owner.password, passkey: authenticator.authenticate(reauth) },
      },
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const refused = await resetWith(freshClient(t.app), beforeRemove, owner.id, 'Lantern-Quay-48');
    expect(refused.json().errorMessage).toBe(INVALID_LINK);
    expect((await cancellations(owner.id)).map((c) => c.reason)).toEqual([
      'passkey.added',
      'passkey.removed',
    ]);
  });

  it('a completed email change voids the reset link mailed to the old address', async () => {
    const owner = await signedIn(t);
    const change = await pendingEmailChange(owner.client, owner.password);
    const stale = await resetToken(owner.email);
    const confirmed = await freshClient(t.app).post(`${API}/auth/email/confirm`, {
      token: change.token,
    });
    expect(confirmed.json()).toEqual({ email: change.newEmail });
    const reset = await resetWith(freshClient(t.app), stale, owner.id, 'Lantern-Quay-48');
    expect(reset.json().errorMessage).toBe(INVALID_LINK);
    // The old address is told the change is done.
    expect(
      t.mailer
        .outbox()
        .filter((m) => m.to === owner.email)
        .at(-1)!.subject,
    ).toMatch(/sign-in email has changed/);
  });

  it('a reset voids the invitations the account sent, not the links of others', async () => {
    const admin = await createVerifiedUser(t);
    const adminClient = freshClient(t.app);
    await adminClient.post(`${API}/auth/signin`, { email: admin.email, password: admin.password });
    const org = await t.pool.query<{ id: string }>(
      `insert into organizations (name, clearing_org_id, kind, participant_status)
       values ('Acme Hedging', $1, 'business', 'approved') returning id`,
      [`NCF-${Math.floor(Math.random() * 1e9)}`],
    );
    const organizationId = org.rows[0]!.id;
    await t.pool.query(
      `update users set organization_id = $1, roles = '{Administrator}' where id = $2`,
      [organizationId, admin.id],
    );
    const invitedEmail = uniqueEmail('invitee');
    const invited = await postForm(adminClient, `${API}/user/settings`, [
      { name: 'tag', value: 'invite_user' },
      { name: 'email', value: invitedEmail },
    ]);
    expect(invited.statusCode, invited.body).toBe(200);
    const inviteToken = lastLink(t, invitedEmail, 'access_token').searchParams.get('access_token')!;
    // Someone else's reset link is untouched by this account's reset.
    const bystander = await createVerifiedUser(t);
    const bystanderToken = await resetToken(bystander.email);

    const reset = await resetWith(
      freshClient(t.app),
      await resetToken(admin.email),
      admin.id,
      'Lantern-Quay-48',
    );
    expect(reset.statusCode).toBe(200);

    const png = await pngBytes();
    const accept: Part[] = [
      { name: 'access_token', value: inviteToken },
      { name: 'organization_id', value: organizationId },
      { name: 'email', value: invitedEmail },
      { name: 'password_text', value: 'Invited-Pass-5' },
      { name: 'first_name', value: 'Ada' },
      { name: 'last_name', value: 'Byron' },
      { name: 'phone_number', value: '+12125550142' },
      { name: 'photo_id', filename: 'id.png', contentType: 'image/png', data: png },
    ];
    const accepted = await postForm(freshClient(t.app), `${API}/auth/invite/accept`, accept);
    expect(accepted.statusCode).toBe(400);
    expect(accepted.json().errorMessage).toBe(INVALID_LINK);
    const theirs = await resetWith(
      freshClient(t.app),
      bystanderToken,
      bystander.id,
      'Harbour-Kite-93',
    );
    expect(theirs.statusCode).toBe(200);
  });
});
