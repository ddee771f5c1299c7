/**
 * Server-to-server API credentials (issue 40 §4): made by an organisation's Administrator (the
 * password again, and the second factor when the account has one), shown once, kept hashed,
 * audited, revocable on every instance; a bearer credential needs no cookie and no CSRF header,
 * and every rule the session obeys still applies, limited by the credential's scopes.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { createPool } from '../../src/server/db/database';
import { insertDemoOrganization } from '../../src/server/db/demoSeed';
import { saveStatement } from '../../src/server/db/statements';
import { demoStatement } from '../../src/server/seed/demoReview';
import { createOutboxMailer } from '../../src/server/mail/mailer';
import {
  CALL_TAKES_NO_CREDENTIAL,
  NOT_A_CREDENTIAL,
  scopeMissing,
} from '../../src/server/plugins/apiCredentials';
import type { ApiScope } from '../../src/shared/api/apiCredentials';
import { auditRows } from './adminHelpers';
import { enableTwoFactor, PASSWORD, signedIn } from './authHelpers';
import { testAppForBlock, type TestApp } from './testApp';
import { totpCode } from '../../src/server/auth/totp';

const API = '/exchange/api/web';
const CREDENTIALS = `${API}/user/api-credentials`;

/** A signed-in Administrator of a new organisation. */
async function administrator(t: TestApp) {
  const user = await signedIn(t);
  const organizationId = await insertDemoOrganization(
    t.pool,
    'Partner Firm',
    `NCF-${crypto.randomInt(100_000, 999_999)}`,
  );
  await t.pool.query(
    `update users set organization_id = $2, roles = '{Administrator}' where id = $1`,
    [user.id, organizationId],
  );
  return { ...user, organizationId };
}

type Admin = Awaited<ReturnType<typeof administrator>>;

async function createCredential(admin: Admin, scopes: ApiScope[], extra: object = {}) {
  const response = await admin.client.post(CREDENTIALS, {
    name: 'Back office',
    scopes,
    password: PASSWORD,
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as {
    credential: { id: string; lastUsedAt: string | null };
    secret: string;
  };
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

describe('API credentials (issue 40 §4)', () => {
  const t = testAppForBlock();

  it('are made by an Administrator, shown once, stored as a hash only, listed and audited', async () => {
    const admin = await administrator(t);
    const since = new Date(Date.now() - 1000);
    const { credential, secret } = await createCredential(admin, ['registrations:read']);
    expect(secret).toMatch(/^ncpk_[A-Za-z0-9_-]{43}$/);

    const listed = await admin.client.get(CREDENTIALS);
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(secret);
    expect(listed.json()).toEqual({
      credentials: [
        expect.objectContaining({
          id: credential.id,
          name: 'Back office',
          scopes: ['registrations:read'],
          secretStart: secret.slice(0, 11),
          createdBy: admin.email,
          lastUsedAt: null,
          revokedAt: null,
        }),
      ],
    });

    // At rest: its SHA-256 and its first characters, nothing that would let anyone use it.
    const row = (
      await t.pool.query('select to_jsonb(c) as row from api_credentials c where id = $1', [
        credential.id,
      ])
    ).rows[0] as { row: Record<string, unknown> };
    expect(row.row.secret_hash).toBe(crypto.hash('sha256', secret, 'hex'));
    expect(JSON.stringify(row.row)).not.toContain(secret.slice(11));

    const created = await auditRows(t, 'api-credential.created', since);
    expect(created.map((r) => [r.actor_user_id, r.detail])).toEqual([
      [
        admin.id,
        {
          credentialId: credential.id,
          organizationId: admin.organizationId,
          scopes: ['registrations:read'],
        },
      ],
    ]);

    const revoked = await admin.client.request('DELETE', `${CREDENTIALS}/${credential.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revokedAt).toEqual(expect.any(String));
    expect((await auditRows(t, 'api-credential.revoked', since)).map((r) => r.detail)).toEqual([
      { credentialId: credential.id, organizationId: admin.organizationId },
    ]);
    const unknown = await admin.client.request('DELETE', `${CREDENTIALS}/${crypto.randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses anyone but an Administrator, and a wrong password', async () => {
    const member = await signedIn(t);
    const refused = await member.client.post(CREDENTIALS, {
      name: 'x',
      scopes: ['statements:read'],
      password: PASSWORD,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errorMessage).toMatch(/Administrator/);
    expect((await member.client.get(CREDENTIALS)).statusCode).toBe(403);

    const admin = await administrator(t);
    const wrong = await admin.client.post(CREDENTIALS, {
      name: 'x',
      scopes: ['statements:read'],
      password: 'not-the-password',
    });
    expect(wrong.statusCode).toBe(400);
    const unknownScope = await admin.client.post(CREDENTIALS, {
      name: 'x',
      scopes: ['admin:everything'],
      password: PASSWORD,
    });
    expect(unknownScope.statusCode).toBe(400);
    expect(
      (
        await t.pool.query('select 1 from api_credentials where organization_id = $1', [
          admin.organizationId,
        ])
      ).rowCount,
    ).toBe(0);
  });

  it('asks for the second factor when the account has one, as every sensitive change does', async () => {
    const admin = await administrator(t);
    const secret = await enableTwoFactor(admin.client);
    const passwordOnly = await admin.client.post(CREDENTIALS, {
      name: 'x',
      scopes: ['statements:read'],
      password: PASSWORD,
    });
    expect(passwordOnly.statusCode).toBe(403);
    expect(passwordOnly.json().errors).toEqual({ secondFactor: expect.stringContaining('totp') });
    await createCredential(admin, ['statements:read'], { totpCode: totpCode(secret, Date.now()) });
  });

  it('act without cookie or CSRF header, as the Administrator, within their scopes', async () => {
    const admin = await administrator(t);
    const { credential, secret } = await createCredential(admin, [
      'applications:write',
      'registrations:read',
    ]);
    const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: bearer(secret), ...(payload ? { payload } : {}) });

    // No cookie, no CSRF header: a state-changing call goes through.
    const saved = await call('PUT', `${API}/applications/individual`, {
      answers: {},
      baseRevision: 0,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.headers['set-cookie']).toBeUndefined();
    // …into the Administrator's own application, as their session reads it.
    const own = await admin.client.get(`${API}/applications/individual`);
    expect(own.json().application.revision).toBe(saved.json().revision);
    expect((await call('GET', `${API}/registration`)).json()).toEqual({ registration: null });

    // A scope it lacks; a call that takes no credential at all (the profile, staff calls).
    const statement = await call('GET', `${API}/customer/${admin.organizationId}/statement`);
    expect(statement.statusCode).toBe(403);
    expect(statement.json().errorMessage).toBe(scopeMissing('statements:read'));
    for (const url of [`${API}/user`, `${API}/user/profile`, '/exchange/api/admin/users']) {
      const refused = await call('GET', url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().errorMessage).toBe(CALL_TAKES_NO_CREDENTIAL);
    }
    const consent = await call('POST', `${API}/esign-consent`, { version: 'x' });
    expect(consent.statusCode).toBe(403);

    // A made-up secret: 401, never the cookie's session instead.
    const madeUp = await t.app.inject({
      method: 'GET',
      url: `${API}/registration`,
      headers: bearer(`ncpk_${crypto.randomBytes(32).toString('base64url')}`),
    });
    expect(madeUp.statusCode).toBe(401);
    expect(madeUp.json().errorMessage).toBe(NOT_A_CREDENTIAL);
    expect(madeUp.headers['www-authenticate']).toBe('Bearer error="invalid_token"');

    const used = await t.pool.query<{ last_used_at: Date | null }>(
      'select last_used_at from api_credentials where id = $1',
      [credential.id],
    );
    expect(used.rows[0]!.last_used_at).toBeInstanceOf(Date);
    expect((await admin.client.get(CREDENTIALS)).json().credentials[0].lastUsedAt).toEqual(
      used.rows[0]!.last_used_at!.toISOString(),
    );
  });

  it('leave the cookie session’s CSRF check as it was', async () => {
    const admin = await administrator(t);
    const noHeader = await admin.client.request('PUT', `${API}/applications/individual`, {
      json: { answers: {}, baseRevision: 0 },
      csrf: false,
    });
    expect(noHeader.statusCode, noHeader.body).toBe(403);
    // A non-bearer Authorization header changes nothing either.
    const basic = await admin.client.request('PUT', `${API}/applications/individual`, {
      json: { answers: {}, baseRevision: 0 },
      csrf: false,
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.statusCode).toBe(403);
  });

  it('obey the session’s rules: the statement of their own organisation, once approved', async () => {
    const admin = await administrator(t);
    const { secret } = await createCredential(admin, ['statements:read']);
    await saveStatement(t.pool, {
      organizationId: admin.organizationId,
      asOf: '2026-11-20',
      statement: demoStatement(),
      loadedBy: null,
    });
    const read = (organizationId: string) =>
      t.app.inject({
        method: 'GET',
        url: `${API}/customer/${organizationId}/statement`,
        headers: bearer(secret),
      });
    const awaiting = await read(admin.organizationId);
    expect(awaiting.statusCode).toBe(403);
    expect(awaiting.json().errorMessage).toBe('Your application is awaiting review.');
    await t.pool.query(
      `update users set details = '{"firstName":"A","lastName":"B","phoneNumber":"+12125550142","approved":true}' where id = $1`,
      [admin.id],
    );
    expect((await read(admin.organizationId)).statusCode).toBe(200);
    const other = await read(crypto.randomUUID());
    expect(other.statusCode).toBe(403);
  });

  it('stop working when their maker is no longer an Administrator', async () => {
    const admin = await administrator(t);
    const { secret } = await createCredential(admin, ['registrations:read']);
    await t.pool.query(`update users set roles = '{Viewer}' where id = $1`, [admin.id]);
    const refused = await t.app.inject({
      method: 'GET',
      url: `${API}/registration`,
      headers: bearer(secret),
    });
    expect(refused.statusCode).toBe(401);
  });

  it('are refused on every instance once revoked (the state is in PostgreSQL)', async () => {
    const admin = await administrator(t);
    const { credential, secret } = await createCredential(admin, ['registrations:read']);
    // A second instance on the same database, as behind a load balancer.
    const pool = createPool(t.pool.options.connectionString!);
    const second = await buildApp({
      config: t.config,
      pool,
      mailer: createOutboxMailer(() => {}),
      logger: false,
    });
    try {
      const read = () =>
        second.inject({ method: 'GET', url: `${API}/registration`, headers: bearer(secret) });
      expect((await read()).statusCode).toBe(200);
      const revoked = await admin.client.request('DELETE', `${CREDENTIALS}/${credential.id}`);
      expect(revoked.statusCode).toBe(200);
      const refused = await read();
      expect(refused.statusCode).toBe(401);
      expect(refused.json().errorMessage).toBe(NOT_A_CREDENTIAL);
    } finally {
      await second.close();
      await pool.end();
    }
  });
});
