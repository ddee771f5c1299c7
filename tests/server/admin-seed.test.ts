import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../src/server/audit/verifyAuditChain';
import { DEMO_SIGN_INS, seedDemoData } from '../../src/server/seed/demo';
import { demoStatement } from '../../src/server/seed/demoReview';
import { validateAnswers } from '../../src/shared/forms/validation/validateAnswers';
import { freshClient } from './authHelpers';
import { openRegistrationAnswers } from '../../src/server/fieldEncryption/registrationSealing';
import { createTestApp, type TestApp } from './testApp';
import { testForm } from '../forms';

async function signIn(t: TestApp, label: string) {
  const demo = DEMO_SIGN_INS.find((d) => d.label === label)!;
  const client = freshClient(t.app);
  const response = await client.post('/exchange/api/web/auth/signin', {
    email: demo.email,
    password: demo.password,
  });
  expect(response.statusCode).toBe(200);
  return { client, user: response.json().user };
}

describe('demo seed for review and the statement', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    expect(await seedDemoData(t.pool, t.config, t.app.forms)).toBe(true);
  });
  afterAll(async () => t.close());

  it('records the demo registrations in the audit trail, marked as demo data, one intact chain', async () => {
    const rows = await t.pool.query<{ action: string; email: string; detail: object }>(
      `select a.action, u.email, a.detail from audit_log a
         join registrations r on r.id = a.registration_id join users u on u.id = r.user_id
        order by a.seq`,
    );
    expect(rows.rows).toEqual([
      {
        action: 'registration.submitted',
        email: DEMO_SIGN_INS[0].email,
        detail: expect.objectContaining({ demo: true }),
      },
      {
        action: 'registration.approved',
        email: DEMO_SIGN_INS[0].email,
        detail: { via: 'console', demo: true },
      },
      {
        action: 'registration.submitted',
        email: DEMO_SIGN_INS[1].email,
        detail: expect.objectContaining({ demo: true }),
      },
    ]);
    expect((await verifyAuditChain(t.pool)).intact).toBe(true);
  });

  it('gives the approved customer (NCF-100001) the demo statement', async () => {
    const { client, user } = await signIn(t, 'Approved customer');
    expect(user.orgDetails.clearingOrgId).toBe('NCF-100001');
    const response = await client.get(
      `/exchange/api/web/customer/${user.organizationId}/statement`,
    );
    expect(response.statusCode).toBe(200);
    const { asOf, ...statement } = response.json();
    expect(asOf).toBe('2026-11-20');
    expect(statement).toEqual(demoStatement());
    expect(statement.accountSummaries).toHaveLength(2);
    expect(statement.trades.length).toBeGreaterThanOrEqual(15);
    const tags = statement.openPositions.map(
      (p: { netPosition: { tag: string } }) => p.netPosition.tag,
    );
    expect(tags).toEqual(expect.arrayContaining(['Long', 'Short']));
  });

  it('gives the customer awaiting review a valid submitted registration the console shows', async () => {
    const rows = await t.pool.query(
      `select r.id, r.status, r.answers,
              (select count(*)::int from registration_documents d where d.registration_id = r.id) as documents
         from registrations r join users u on u.id = r.user_id where u.email = $1`,
      [DEMO_SIGN_INS[1].email],
    );
    const registration = rows.rows[0];
    expect(registration.status).toBe('submitted');
    expect(registration.documents).toBe(8);
    const answers = openRegistrationAnswers(t.app.fieldKeys, registration.id, registration.answers);
    expect(validateAnswers(testForm('individual'), answers)).toEqual({
      valid: true,
      errors: [],
    });

    const { client } = await signIn(t, 'Staff');
    const list = await client.get('/clearing/admin');
    expect(list.body).toContain(DEMO_SIGN_INS[1].email);
    const detail = await client.get(`/clearing/admin/registrations/${registration.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('•••-••-6789');
    expect(detail.body).toContain('1600 Larimer Street');
    const document = await t.pool.query(
      `select id from registration_documents where registration_id = $1 and part = 'photoId'`,
      [registration.id],
    );
    const download = await client.get(`/clearing/admin/documents/${document.rows[0].id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('attachment');
  });
});
