import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStatement } from '../../src/server/seed/demoReview';
import { freshClient, lastLink, signedIn, uniqueEmail } from './authHelpers';
import { auditRows, registeredCustomer, signedInStaff } from './adminHelpers';
import { createTestApp, type TestApp, type TestClient } from './testApp';

const A = '/exchange/api/admin';
const SOME_UUID = '00000000-0000-4000-8000-000000000000';

type Call = { method: 'GET' | 'POST' | 'PUT'; url: string; json?: unknown };

describe('admin API', () => {
  let t: TestApp;
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  let calls: Call[];

  const send = (client: TestClient, call: Call) =>
    client.request(call.method, call.url, call.json === undefined ? {} : { json: call.json });

  beforeAll(async () => {
    t = await createTestApp();
    staff = await signedInStaff(t);
    customer = await registeredCustomer(t);
    calls = [
      { method: 'GET', url: `${A}/users` },
      { method: 'GET', url: `${A}/user/${customer.id}` },
      { method: 'GET', url: `${A}/organizations` },
      { method: 'GET', url: `${A}/onboarding/organizations` },
      {
        method: 'POST',
        url: `${A}/onboarding/kyc-approval`,
        json: { registrationId: SOME_UUID, approved: true },
      },
      {
        method: 'POST',
        url: `${A}/onboarding/participant-approval`,
        json: { organizationId: SOME_UUID, approved: true },
      },
      { method: 'POST', url: `${A}/onboarding/verification-email`, json: { userId: SOME_UUID } },
      { method: 'GET', url: `${A}/clearing-firms` },
      { method: 'GET', url: `${A}/statements/${customer.organizationId}` },
      {
        method: 'PUT',
        url: `${A}/statements/${customer.organizationId}`,
        json: { statement: demoStatement() },
      },
    ];
  });
  afterAll(async () => t.close());

  it('answers 401 to every call when signed out, before validating anything', async () => {
    const client = freshClient(t.app);
    for (const call of [
      ...calls,
      { method: 'POST' as const, url: `${A}/onboarding/kyc-approval`, json: { junk: 1 } },
    ]) {
      const response = await send(client, call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
    }
  });

  it('answers 403 to every call for a signed-in customer, and audits the refusal', async () => {
    const since = new Date();
    for (const call of calls) {
      const response = await send(customer.client, call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
    }
    const rows = await auditRows(t, 'admin.api', since);
    expect(rows.filter((r) => r.actor_user_id === customer.id)).toHaveLength(calls.length);
    expect(rows.every((r) => r.detail.status === 403)).toBe(true);
  });

  it('lets staff make every read call, audited with who, what and when', async () => {
    const since = new Date();
    await t.pool.query('delete from statements');
    const users = await staff.client.get(`${A}/users?search=${encodeURIComponent(customer.email)}`);
    expect(users.statusCode).toBe(200);
    expect(users.json().nextCursor).toBeNull();
    expect(users.json().data).toEqual([
      expect.objectContaining({ id: customer.id, email: customer.email, approved: false }),
    ]);
    expect(users.json().data[0]).not.toHaveProperty('password_hash');

    const user = await staff.client.get(`${A}/user/${customer.id}`);
    expect(user.statusCode).toBe(200);
    expect(user.json()).toMatchObject({
      id: customer.id,
      details: { firstName: 'Jane', approved: false },
      registration: { registrationId: customer.registrationId, status: 'submitted' },
    });
    expect(JSON.stringify(user.json())).not.toContain('totp_secret');
    expect((await staff.client.get(`${A}/user/${SOME_UUID}`)).statusCode).toBe(404);
    expect((await staff.client.get(`${A}/user/not-a-uuid`)).statusCode).toBe(400);

    const organizations = await staff.client.get(`${A}/organizations`);
    expect(organizations.json()).toContainEqual(
      expect.objectContaining({
        id: customer.organizationId,
        registrationStatus: 'submitted',
        participantStatus: 'pending',
        memberCount: 1,
        latestStatementAsOf: null,
      }),
    );

    const onboarding = await staff.client.get(`${A}/onboarding/organizations?status=submitted`);
    expect(onboarding.json().data).toContainEqual(
      expect.objectContaining({
        registrationId: customer.registrationId,
        status: 'submitted',
        formId: 'individual',
      }),
    );
    expect((await staff.client.get(`${A}/onboarding/organizations?status=bogus`)).statusCode).toBe(
      400,
    );

    const firms = await staff.client.get(`${A}/clearing-firms`);
    expect(firms.json()).toEqual([
      expect.objectContaining({ clearingFirmId: 'NCF', name: 'Northstar Clearing' }),
    ]);

    const rows = await auditRows(t, 'admin.api', since);
    const mine = rows.filter((r) => r.actor_user_id === staff.id);
    expect(mine.map((r) => r.detail.route)).toEqual(
      expect.arrayContaining([
        '/exchange/api/admin/users',
        '/exchange/api/admin/user/:userId',
        '/exchange/api/admin/organizations',
        '/exchange/api/admin/onboarding/organizations',
        '/exchange/api/admin/clearing-firms',
      ]),
    );
    expect(
      mine.find((r) => r.detail.route === '/exchange/api/admin/user/:userId')?.detail,
    ).toMatchObject({
      method: 'GET',
      userId: customer.id,
      status: 200,
    });
  });

  it('KYC approval flips the customer’s details.approved (their banner) and is audited', async () => {
    const c = await registeredCustomer(t);
    const before = await c.client.get('/exchange/api/web/user');
    expect(before.json().details.approved).toBe(false);

    const response = await staff.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: c.registrationId,
      approved: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'approved' });

    const after = await c.client.get('/exchange/api/web/user');
    expect(after.json().details.approved).toBe(true);
    const row = await t.pool.query(
      'select status, reviewed_by, reviewed_at from registrations where id = $1',
      [c.registrationId],
    );
    expect(row.rows[0]).toMatchObject({ status: 'approved', reviewed_by: staff.id });
    const audit = await auditRows(t, 'registration.approved');
    expect(audit).toContainEqual(
      expect.objectContaining({
        actor_user_id: staff.id,
        subject: c.id,
        registration_id: c.registrationId,
        detail: { via: 'api' },
      }),
    );

    const again = await staff.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: c.registrationId,
      approved: false,
      reason: 'changed my mind',
    });
    expect(again.statusCode).toBe(409);
  });

  it('KYC rejection needs a reason, records it, and leaves the customer unapproved', async () => {
    const c = await registeredCustomer(t);
    const noReason = await staff.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: c.registrationId,
      approved: false,
    });
    expect(noReason.statusCode).toBe(400);
    const response = await staff.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: c.registrationId,
      approved: false,
      reason: 'The photo ID is unreadable.',
    });
    expect(response.json()).toEqual({ status: 'rejected' });
    const row = await t.pool.query(
      'select status, decision_reason from registrations where id = $1',
      [c.registrationId],
    );
    expect(row.rows[0]).toEqual({
      status: 'rejected',
      decision_reason: 'The photo ID is unreadable.',
    });
    expect((await c.client.get('/exchange/api/web/user')).json().details.approved).toBe(false);
    expect((await auditRows(t, 'registration.rejected')).map((r) => r.subject)).toContain(c.id);
  });

  it('validates the KYC body and answers 404 for an unknown registration', async () => {
    const bad = [
      {},
      { registrationId: 'nope', approved: true },
      { registrationId: SOME_UUID, approved: 'yes' },
      { registrationId: SOME_UUID, approved: true, reason: 'x'.repeat(2001) },
    ];
    for (const json of bad) {
      const response = await staff.client.post(`${A}/onboarding/kyc-approval`, json);
      expect(response.statusCode, JSON.stringify(json)).toBe(400);
    }
    const unknown = await staff.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: SOME_UUID,
      approved: true,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('participant approval needs KYC approval first, then admits the organization', async () => {
    const c = await registeredCustomer(t);
    const early = await staff.client.post(`${A}/onboarding/participant-approval`, {
      organizationId: c.organizationId,
      approved: true,
    });
    expect(early.statusCode).toBe(409);
    await staff.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: c.registrationId,
      approved: true,
    });
    const response = await staff.client.post(`${A}/onboarding/participant-approval`, {
      organizationId: c.organizationId,
      approved: true,
    });
    expect(response.statusCode).toBe(200);
    const organizations = (await staff.client.get(`${A}/organizations`)).json();
    expect(organizations).toContainEqual(
      expect.objectContaining({ id: c.organizationId, participantStatus: 'approved' }),
    );
    expect((await auditRows(t, 'organization.participant-approved')).at(-1)?.detail).toMatchObject({
      organizationId: c.organizationId,
    });
    const unknown = await staff.client.post(`${A}/onboarding/participant-approval`, {
      organizationId: SOME_UUID,
      approved: false,
      reason: 'x',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('re-sends a verification link to an unverified user, 409 once verified', async () => {
    const email = uniqueEmail('unverified');
    await freshClient(t.app).post('/exchange/api/web/auth/signup', {
      email,
      authOrigin: 'Clearing',
    });
    const first = lastLink(t, email, 'verify-email');
    const row = await t.pool.query('select id from users where email = $1', [email]);
    const userId = row.rows[0].id as string;
    const response = await staff.client.post(`${A}/onboarding/verification-email`, { userId });
    expect(response.statusCode).toBe(200);
    const second = lastLink(t, email, 'verify-email');
    expect(second.searchParams.get('access_token')).not.toBe(
      first.searchParams.get('access_token'),
    );
    expect((await auditRows(t, 'admin.verification-email')).map((r) => r.subject)).toContain(
      userId,
    );

    const verified = await signedIn(t);
    const refused = await staff.client.post(`${A}/onboarding/verification-email`, {
      userId: verified.id,
    });
    expect(refused.statusCode).toBe(409);
  });

  it('loads and reads a statement for an organization, by id or clearing id', async () => {
    const none = await staff.client.get(`${A}/statements/${customer.organizationId}`);
    expect(none.statusCode).toBe(404);
    const put = await staff.client.request('PUT', `${A}/statements/${customer.organizationId}`, {
      json: { asOf: '2026-11-20', statement: demoStatement() },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ asOf: '2026-11-20', loadedBy: staff.id });
    const clearing = await t.pool.query('select clearing_org_id from organizations where id = $1', [
      customer.organizationId,
    ]);
    const get = await staff.client.get(`${A}/statements/${clearing.rows[0].clearing_org_id}`);
    expect(get.statusCode).toBe(200);
    expect(get.json().statement).toEqual(demoStatement());
    expect((await auditRows(t, 'statement.loaded')).at(-1)).toMatchObject({
      actor_user_id: staff.id,
      detail: { organizationId: customer.organizationId, asOf: '2026-11-20', via: 'api' },
    });
    expect((await staff.client.get(`${A}/statements/NCF-NONE`)).statusCode).toBe(404);
  });

  it('refuses an invalid statement with 422 and every problem named, storing nothing', async () => {
    const statement = structuredClone(demoStatement());
    statement.trades[0]!.notionalValue = 'lots';
    const response = await staff.client.request(
      'PUT',
      `${A}/statements/${customer.organizationId}`,
      { json: { asOf: '2026-11-21', statement } },
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errorMessage).toContain(
      '/trades/0/notionalValue: must be a decimal string such as "1234.56"',
    );
    const stored = await t.pool.query(
      "select 1 from statements where organization_id = $1 and as_of = '2026-11-21'",
      [customer.organizationId],
    );
    expect(stored.rowCount).toBe(0);
    const badDate = await staff.client.request(
      'PUT',
      `${A}/statements/${customer.organizationId}`,
      {
        json: { asOf: '20 Nov', statement: demoStatement() },
      },
    );
    expect(badDate.statusCode).toBe(400);
  });
});
