import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveStatement } from '../../src/server/db/statements';
import { demoStatement } from '../../src/server/seed/demoReview';
import { freshClient } from './authHelpers';
import { registeredCustomer, signedInStaff } from './adminHelpers';
import { createTestApp, type TestApp } from './testApp';

describe('Cache-Control on signed-in JSON answers (ASVS 14.3.2, issue 39 §5)', () => {
  let t: TestApp;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  beforeAll(async () => {
    t = await createTestApp();
    customer = await registeredCustomer(t);
    staff = await signedInStaff(t);
    await t.pool.query(
      `update users set details = jsonb_set(details, '{approved}', 'true') where id = $1`,
      [customer.id],
    );
    await saveStatement(t.pool, {
      organizationId: customer.organizationId,
      statement: demoStatement(),
      asOf: '2026-11-20',
      loadedBy: null,
    });
  });
  afterAll(async () => t.close());

  it('sends no-store on the application (SSN, date of birth), the user and the staff’s user list', async () => {
    const answers = [
      await customer.client.get('/exchange/api/applications/individual'),
      await customer.client.get('/exchange/api/web/user'),
      await customer.client.get('/exchange/api/web/user/profile'),
      await staff.client.get('/exchange/api/admin/users'),
      // A refusal to a signed-in caller too.
      await customer.client.get('/exchange/api/admin/users'),
    ];
    for (const answer of answers) {
      expect(answer.headers['content-type'], answer.body).toMatch(/^application\/json/);
      expect(answer.headers['cache-control'], answer.body).toBe('no-store');
    }
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 403]);
  });

  it('keeps the statement revalidated (private, no-cache) so its reload still answers 304', async () => {
    const url = `/exchange/api/web/customer/${customer.organizationId}/statement`;
    const first = await customer.client.get(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await customer.client.get(url, { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    // Signed out, the copy the browser holds is not revalidated: 401, and nothing to keep.
    const stranger = await freshClient(t.app).get(url, {
      'if-none-match': first.headers.etag as string,
    });
    expect(stranger.statusCode).toBe(401);
    expect(stranger.headers['cache-control']).toBe('no-store');
  });

  it('leaves a public answer its own policy', async () => {
    const listing = await freshClient(t.app).get('/clearing/api/web/disclosures');
    expect(listing.headers['cache-control']).toBe('public, max-age=60');
  });
});
