/**
 * Issue 39 §5: request-changes and approve sent together both answered 200; the registration
 * ended approved while its application stayed `changes_requested` and still took saves. Each
 * submitted version takes one decision, whichever pair of decisions races.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveUser } from '../../src/server/admin/review';
import { registeredCustomer, signedInStaff } from './adminHelpers';
import { createTestApp, type TestApp, type TestClient } from './testApp';

const A = '/exchange/api/admin';

type Decision = 'approve' | 'reject' | 'changes';

const decide = (client: TestClient, decision: Decision, registrationId: string) =>
  decision === 'changes'
    ? client.post(`${A}/onboarding/kyc-changes-request`, {
        registrationId,
        note: 'Please upload a sharper photo of your ID.',
      })
    : client.post(`${A}/onboarding/kyc-approval`, {
        registrationId,
        approved: decision === 'approve',
        reason: decision === 'reject' ? 'We could not verify your identity.' : undefined,
      });

const STATUS: Record<Decision, string> = {
  approve: 'approved',
  reject: 'rejected',
  changes: 'changes_requested',
};

describe('one decision per submitted version (issue 39 §5)', () => {
  let t: TestApp;
  let first: TestClient;
  let second: TestClient;
  beforeAll(async () => {
    t = await createTestApp();
    first = (await signedInStaff(t)).client;
    second = (await signedInStaff(t)).client;
  });
  afterAll(async () => t.close());

  const stateOf = async (userId: string) => {
    const result = await t.pool.query<{
      registration: string;
      application: string | null;
      approved: boolean;
    }>(
      `select r.status as registration, a.status as application,
              coalesce((u.details->>'approved')::boolean, false) as approved
         from registrations r join users u on u.id = r.user_id
         left join applications a on a.user_id = r.user_id
        where r.user_id = $1`,
      [userId],
    );
    return result.rows[0]!;
  };

  it('refuses an approval or more changes once changes were requested, until the applicant sends them', async () => {
    const customer = await registeredCustomer(t);
    expect((await decide(first, 'changes', customer.registrationId)).statusCode).toBe(200);
    for (const decision of ['approve', 'changes'] as const) {
      const late = await decide(second, decision, customer.registrationId);
      expect(late.statusCode, decision).toBe(409);
      expect(late.json().errorMessage).toBe(
        'Changes were already requested; this registration waits for the applicant.',
      );
    }
    expect(await stateOf(customer.id)).toEqual({
      registration: 'changes_requested',
      application: 'changes_requested',
      approved: false,
    });
  });

  it('lets staff reject a registration waiting for changes, closing its application to saves', async () => {
    const customer = await registeredCustomer(t);
    expect((await decide(first, 'changes', customer.registrationId)).statusCode).toBe(200);
    expect((await decide(second, 'reject', customer.registrationId)).statusCode).toBe(200);
    expect(await stateOf(customer.id)).toEqual({
      registration: 'rejected',
      application: 'submitted',
      approved: false,
    });
    const save = await customer.client.request('PUT', '/exchange/api/web/applications/individual', {
      json: { answers: {}, baseRevision: 0 },
    });
    expect(save.statusCode).toBe(409);
  });

  it('the operator’s approve refuses a registration waiting for changes, approving no details', async () => {
    const customer = await registeredCustomer(t);
    expect((await decide(first, 'changes', customer.registrationId)).statusCode).toBe(200);
    const deps = {
      pool: t.pool,
      mailer: t.mailer,
      publicUrl: t.config.publicUrl,
      forms: t.app.forms,
      fieldKeys: t.app.fieldKeys,
    };
    await expect(approveUser(deps, customer.id, { userId: null, via: 'cli' })).rejects.toThrow(
      'Changes were already requested; this registration waits for the applicant.',
    );
    expect((await stateOf(customer.id)).approved).toBe(false);
  });

  const pairs: [Decision, Decision][] = [
    ['changes', 'approve'],
    ['approve', 'changes'],
    ['changes', 'reject'],
    ['approve', 'reject'],
    ['changes', 'changes'],
  ];
  it.each(pairs)('lets one of %s and %s sent together through, the other 409', async (a, b) => {
    // A rejection may follow a request for changes (it closes the waiting application); the
    // other way round, and every other pair, one of the two is refused.
    const both = (winner: Decision) => winner === 'changes' && b === 'reject';
    for (let round = 0; round < 3; round++) {
      const customer = await registeredCustomer(t);
      const answers = await Promise.all([
        decide(first, a, customer.registrationId),
        decide(second, b, customer.registrationId),
      ]);
      const codes = answers.map((answer) => answer.statusCode);
      const state = await stateOf(customer.id);
      if (codes.every((code) => code === 200)) {
        // Changes asked, then rejected: the rejection closed the reopened application.
        expect(both('changes')).toBe(true);
        expect(state).toEqual({
          registration: 'rejected',
          application: 'submitted',
          approved: false,
        });
        continue;
      }
      expect([...codes].sort(), answers.map((answer) => answer.body).join(' | ')).toEqual([
        200, 409,
      ]);
      const winner = codes[0] === 200 ? a : b;
      expect(state.registration).toBe(STATUS[winner]);
      expect(state.approved).toBe(winner === 'approve');
      // The application reopens for changes only when that was the decision.
      expect(state.application === 'changes_requested').toBe(winner === 'changes');
    }
  });
});
