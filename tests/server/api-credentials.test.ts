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
  CREDENTIAL_REVOKED,
  MAKER_NOT_ADMINISTRATOR,
  NOT_A_CREDENTIAL,
  scopeMissing,
} from '../../src/server/plugins/apiCredentials';
import { routeScope } from '../../src/server/auth/apiCredentials';
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
    expect(statement.json()).toEqual({
      errorMessage: scopeMissing('statements:read'),
      code: 'scope_missing',
    });
    expect(statement.json().errorMessage).toContain('statements:read');
    for (const url of [`${API}/user`, `${API}/user/profile`, '/exchange/api/admin/users']) {
      const refused = await call('GET', url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toEqual({
        errorMessage: CALL_TAKES_NO_CREDENTIAL,
        code: 'credential_not_accepted',
      });
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
    expect(madeUp.json()).toEqual({ errorMessage: NOT_A_CREDENTIAL, code: 'credential_invalid' });
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
    expect(refused.json()).toEqual({
      errorMessage: MAKER_NOT_ADMINISTRATOR,
      code: 'credential_revoked',
    });
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
      // The second instance, which has just let the credential in, refuses it at once: nothing
      // of it is cached in either instance.
      const refused = await read();
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({
        errorMessage: CREDENTIAL_REVOKED,
        code: 'credential_revoked',
      });
    } finally {
      await second.close();
      await pool.end();
    }
  });

  it('say why each refusal is one: invalid, malformed, wrong secret, revoked, scope missing', async () => {
    const admin = await administrator(t);
    const { credential, secret } = await createCredential(admin, ['registrations:read']);
    const read = (authorization: string) =>
      t.app.inject({ method: 'GET', url: `${API}/registration`, headers: { authorization } });
    const invalid = { errorMessage: NOT_A_CREDENTIAL, code: 'credential_invalid' };
    // Unknown (well formed), malformed (another shape, a space inside, no secret at all), and the
    // right start with the wrong rest: each 401 credential_invalid, never the cookie's session.
    const wrongRest = `${secret.slice(0, 20)}${'A'.repeat(secret.length - 20)}`;
    for (const header of [
      `Bearer ncpk_${crypto.randomBytes(32).toString('base64url')}`,
      'Bearer not-a-credential',
      `Bearer ${secret} extra`,
      'Bearer',
      `bearer ${secret.slice(0, -1)}`,
      `Bearer ${wrongRest}`,
    ]) {
      const answer = await read(header);
      expect(answer.statusCode, header).toBe(401);
      expect(answer.json(), header).toEqual(invalid);
      expect(answer.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
    // With a session cookie beside it, a bad credential still answers 401, not the session.
    const withCookie = await admin.client.request('GET', `${API}/registration`, {
      headers: { authorization: 'Bearer not-a-credential' },
    });
    expect(withCookie.statusCode).toBe(401);
    expect(withCookie.json().code).toBe('credential_invalid');

    const scope = await t.app.inject({
      method: 'GET',
      url: `${API}/customer/${admin.organizationId}/statement`,
      headers: bearer(secret),
    });
    expect(scope.statusCode).toBe(403);
    expect(scope.json()).toEqual({
      errorMessage: expect.stringContaining('statements:read'),
      code: 'scope_missing',
    });
    expect(scope.headers['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="statements:read"',
    );

    await admin.client.request('DELETE', `${CREDENTIALS}/${credential.id}`);
    const revoked = await read(`Bearer ${secret}`);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toEqual({
      errorMessage: CREDENTIAL_REVOKED,
      code: 'credential_revoked',
    });
  });

  it('are refused, with credential_not_accepted, by every route that declares no scope', async () => {
    const admin = await administrator(t);
    await t.pool.query(
      `update users set details = '{"firstName":"A","lastName":"B","phoneNumber":"+12125550142","approved":true}' where id = $1`,
      [admin.id],
    );
    await saveStatement(t.pool, {
      organizationId: admin.organizationId,
      asOf: '2026-11-20',
      statement: demoStatement(),
      loadedBy: null,
    });
    const { secret } = await createCredential(admin, [
      'applications:write',
      'registrations:read',
      'statements:read',
      'webhooks:manage',
    ]);
    // One call per scope that works.
    for (const url of [
      `${API}/forms`,
      `${API}/registration`,
      `${API}/customer/${admin.organizationId}/statement`,
      `${API}/webhooks/endpoints`,
    ]) {
      const answer = await t.app.inject({ method: 'GET', url, headers: bearer(secret) });
      expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
    }

    // Every route the app has: one without a scope refuses the credential, whatever cookie comes
    // with it (the Administrator's own session here), and answers nothing of the session's.
    const refused: string[] = [];
    let takingRoutes = 0;
    for (const route of t.app.routeTable) {
      if (route.method === 'HEAD' || route.method === 'OPTIONS') continue;
      const security = (route.schema?.security ?? []) as Record<string, unknown>[];
      const takes =
        security.some((requirement) => 'apiCredential' in requirement) ||
        routeScope(route.method, route.url) !== undefined;
      const url = route.url
        .replace(/:organizationId/, admin.organizationId)
        .replace(/:formId/, 'individual')
        .replace(/:[A-Za-z]+/g, crypto.randomUUID())
        .replace(/\*$/, 'anything');
      const method = route.method as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
      const answer = await admin.client.request(method, url, {
        headers: bearer(secret),
        ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }),
      });
      const label = `${route.method} ${route.url}`;
      if (takes) {
        takingRoutes += 1;
        expect(['credential_not_accepted', 'scope_missing'], label).not.toContain(
          answer.json<{ code?: string }>().code,
        );
      } else {
        refused.push(label);
        expect(answer.statusCode, `${label}: ${answer.body}`).toBe(403);
        // The staff console's pages answer their refusals as a page; every API call as JSON.
        if (/^text\/html/.test(String(answer.headers['content-type']))) {
          expect(route.url, label).toMatch(/^\/clearing\/admin/);
          expect(answer.body, label).toContain(CALL_TAKES_NO_CREDENTIAL);
        } else {
          expect(answer.json(), label).toEqual({
            errorMessage: CALL_TAKES_NO_CREDENTIAL,
            code: 'credential_not_accepted',
          });
        }
        expect(answer.body, label).not.toContain(admin.email);
      }
    }
    // Today 143 refuse and 22 take one (sign-up to staff pages; forms to webhooks).
    expect(refused.length).toBeGreaterThan(100);
    expect(refused).toEqual(
      expect.arrayContaining(
        [
          'GET /user',
          'GET /user/sessions',
          'POST /user/sessions/end-others',
          'POST /user/password',
          'POST /user/2fa',
          'DELETE /user/2fa',
          'GET /user/api-credentials',
          'POST /user/api-credentials',
          'DELETE /user/api-credentials/:id',
          'POST /auth/signout',
          'POST /esign-consent',
        ].map((call) => call.replace(' /', ` ${API}/`)),
      ),
    );
    expect(takingRoutes).toBeGreaterThanOrEqual(20);
  });

  it('are named in every audit row of what they do (id, never the secret), with whom they act for', async () => {
    const admin = await administrator(t);
    const { credential, secret } = await createCredential(admin, [
      'applications:write',
      'webhooks:manage',
    ]);
    const since = new Date(Date.now() - 1000);
    const saved = await t.app.inject({
      method: 'PUT',
      url: `${API}/applications/individual`,
      headers: bearer(secret),
      payload: { answers: {}, baseRevision: 0 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const endpoint = await t.app.inject({
      method: 'POST',
      url: `${API}/webhooks/endpoints`,
      headers: bearer(secret),
      payload: { url: 'http://127.0.0.1:9/hook', events: ['registration.approved'] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const via = {
      viaApiCredential: credential.id,
      apiCredentialOrganizationId: admin.organizationId,
    };
    for (const action of ['application.created', 'webhook.endpoint-created']) {
      const rows = (await auditRows(t, action, since)).filter((r) => r.actor_user_id === admin.id);
      expect(rows.length, action).toBe(1);
      expect(rows[0]!.detail, action).toMatchObject(via);
      expect(JSON.stringify(rows[0]!.detail)).not.toContain(secret.slice(5));
    }
    // The same action by the Administrator's own session names no credential.
    await admin.client.request('PATCH', `${API}/webhooks/endpoints/${endpoint.json().id}`, {
      json: { enabled: false },
    });
    const changed = await auditRows(t, 'webhook.endpoint-changed', since);
    expect(changed.at(-1)!.detail).not.toHaveProperty('viaApiCredential');
  });
});
