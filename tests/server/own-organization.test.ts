/**
 * Separation of duties on organisations (issue 39 §3): no member of staff decides on or writes
 * about an organisation they belong to or whose registration they filed — participant admission,
 * its statement, its settings (invitations, roles) — nor, as before (issue 26 §3), its
 * registrations. One function decides it for every route (admin/ownOrganization.ts).
 */
import { describe, expect, it } from 'vitest';
import { demoStatement } from '../../src/server/seed/demoReview';
import { auditRows, registeredBusiness, signedInStaff } from './adminHelpers';
import { postForm, uniqueEmail } from './authHelpers';
import { testAppForBlock, type TestClient } from './testApp';

const A = '/exchange/api/admin';
const CONSOLE = '/clearing/admin';

const OWN_ADMISSION =
  'This organisation is your own, so you cannot decide on its admission as a clearing participant: another reviewer must.';
const FILED_ADMISSION =
  'You filed this organisation’s registration, so you cannot decide on its admission as a clearing participant: another reviewer must.';
const OWN_STATEMENT =
  'This organisation is your own, so you cannot load its clearing statement: another member of staff must.';
const FILED_STATEMENT =
  'You filed this organisation’s registration, so you cannot load its clearing statement: another member of staff must.';

describe('staff never act on their own organisation (issue 39 §3)', () => {
  const t = testAppForBlock();

  const admit = (client: TestClient, organizationId: string, approved = true) =>
    client.post(`${A}/onboarding/participant-approval`, {
      organizationId,
      approved,
      ...(approved ? {} : { reason: 'Not for us.' }),
    });
  const loadStatement = (client: TestClient, organizationId: string) =>
    client.request('PUT', `${A}/statements/${organizationId}`, {
      json: { asOf: '2026-11-21', statement: demoStatement() },
    });
  const organization = async (id: string) =>
    (
      await t.pool.query<{ participant_status: string; participant_decided_by: string | null }>(
        'select participant_status, participant_decided_by from organizations where id = $1',
        [id],
      )
    ).rows[0]!;
  const statements = async (organizationId: string) =>
    (
      await t.pool.query<{ n: number }>(
        'select count(*)::int as n from statements where organization_id = $1',
        [organizationId],
      )
    ).rows[0]!.n;

  /** A business registered and passed KYC by an unrelated reviewer, its registrant made staff. */
  async function businessOfStaff() {
    const registrant = await registeredBusiness(t);
    const reviewer = await signedInStaff(t);
    const kyc = await reviewer.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: registrant.registrationId,
      approved: true,
    });
    expect(kyc.statusCode, kyc.body).toBe(200);
    await t.pool.query('update users set is_staff = true where id = $1', [registrant.id]);
    return { registrant, reviewer };
  }

  it('refuses admission decided by the staff member who filed the registration, or a colleague of it', async () => {
    const { registrant, reviewer } = await businessOfStaff();
    const colleague = await signedInStaff(t);
    await t.pool.query('update users set organization_id = $2 where id = $1', [
      colleague.id,
      registrant.organizationId,
    ]);
    for (const [client, approved] of [
      [registrant.client, true],
      [registrant.client, false],
      [colleague.client, false],
      [colleague.client, true],
    ] as const) {
      const refused = await admit(client, registrant.organizationId, approved);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().errorMessage).toBe(OWN_ADMISSION);
    }
    expect(await organization(registrant.organizationId)).toEqual({
      participant_status: 'pending',
      participant_decided_by: null,
    });
    expect(
      (await auditRows(t, 'organization.participant-approved')).filter(
        (row) => row.detail.organizationId === registrant.organizationId,
      ),
    ).toEqual([]);

    // The filer counts even once they have left the organisation.
    await t.pool.query('update users set organization_id = null where id = $1', [registrant.id]);
    const filed = await admit(registrant.client, registrant.organizationId);
    expect(filed.statusCode).toBe(403);
    expect(filed.json().errorMessage).toBe(FILED_ADMISSION);

    // A reviewer with no tie to it decides.
    const admitted = await admit(reviewer.client, registrant.organizationId);
    expect(admitted.statusCode, admitted.body).toBe(200);
    expect(await organization(registrant.organizationId)).toMatchObject({
      participant_status: 'approved',
      participant_decided_by: reviewer.id,
    });
  });

  it('refuses loading the statement of one’s own organisation, before reading the statement', async () => {
    const { registrant, reviewer } = await businessOfStaff();
    const own = await loadStatement(registrant.client, registrant.organizationId);
    expect(own.statusCode).toBe(403);
    expect(own.json().errorMessage).toBe(OWN_STATEMENT);
    // Refused before validation: a malformed statement gets the same 403, not a 422.
    const malformed = await registrant.client.request(
      'PUT',
      `${A}/statements/${registrant.organizationId}`,
      { json: { statement: { junk: true } } },
    );
    expect(malformed.statusCode).toBe(403);
    await t.pool.query('update users set organization_id = null where id = $1', [registrant.id]);
    const filed = await loadStatement(registrant.client, registrant.organizationId);
    expect(filed.json().errorMessage).toBe(FILED_STATEMENT);
    expect(await statements(registrant.organizationId)).toBe(0);

    const loaded = await loadStatement(reviewer.client, registrant.organizationId);
    expect(loaded.statusCode, loaded.body).toBe(200);
    expect(await statements(registrant.organizationId)).toBe(1);
  });

  it('refuses invitations and roles set on its behalf by an Administrator who is staff', async () => {
    const { registrant } = await businessOfStaff();
    await t.pool.query(`update organizations set participant_status = 'approved' where id = $1`, [
      registrant.organizationId,
    ]);
    const sentence =
      'This organisation is your own, so as Northstar Clearing staff you cannot invite people or set roles on its behalf: another Administrator of the organisation must.';
    const mailsBefore = t.mailer.outbox().length;
    const invited = await postForm(registrant.client, '/exchange/api/web/user/settings', [
      { name: 'tag', value: 'invite_user' },
      { name: 'email', value: uniqueEmail('invitee') },
    ]);
    expect(invited.statusCode).toBe(403);
    expect(invited.json().errorMessage).toBe(sentence);
    const roles = await postForm(registrant.client, '/exchange/api/web/user/settings', [
      { name: 'tag', value: 'set_roles' },
      { name: 'user_id', value: registrant.id },
      { name: 'role', value: 'Trader' },
      { name: 'role', value: 'Administrator' },
    ]);
    expect(roles.statusCode).toBe(403);
    expect(roles.json().errorMessage).toBe(sentence);
    expect(t.mailer.outbox().length).toBe(mailsBefore);
    const row = await t.pool.query<{ roles: string[] }>('select roles from users where id = $1', [
      registrant.id,
    ]);
    expect(row.rows[0]!.roles).toEqual(['Administrator']);

    // The same Administrator, no longer staff, invites as any customer does.
    await t.pool.query('update users set is_staff = false where id = $1', [registrant.id]);
    const asCustomer = await postForm(registrant.client, '/exchange/api/web/user/settings', [
      { name: 'tag', value: 'invite_user' },
      { name: 'email', value: uniqueEmail('invitee') },
    ]);
    expect(asCustomer.statusCode, asCustomer.body).toBe(200);
  });

  it('refuses a decision on any registration of an organisation whose registration one filed, and the console leaves its buttons out', async () => {
    const earlier = await registeredBusiness(t);
    const later = await registeredBusiness(t);
    // `earlier` filed a registration of `later`'s organisation (say, its first, since replaced)
    // and now works as staff outside it.
    await t.pool.query('update registrations set organization_id = $2 where id = $1', [
      earlier.registrationId,
      later.organizationId,
    ]);
    await t.pool.query('update users set is_staff = true, organization_id = null where id = $1', [
      earlier.id,
    ]);
    const sentence =
      'You filed a registration of this organisation, so you cannot decide on it: another reviewer must approve, reject or request changes.';
    const refused = await earlier.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: later.registrationId,
      approved: true,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errorMessage).toBe(sentence);
    const page = await earlier.client.get(`${CONSOLE}/registrations/${later.registrationId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(sentence);
    expect(page.body).not.toContain('class="reject"');
    expect(page.body).not.toContain('Request changes</button>');
    const approve = await earlier.client.get(
      `${CONSOLE}/registrations/${later.registrationId}/approve`,
    );
    expect(approve.statusCode).toBe(303);
  });
});
