/**
 * The staff lists page by cursor (issue 40 §6): `cursor` and `limit` in, `{ data, nextCursor }`
 * out; every item once, in the list's order, ties included; a cursor not made by the list is 400.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { registeredCustomer, signedInStaff } from './adminHelpers';
import { createVerifiedUser, uniqueEmail } from './authHelpers';
import { testAppForBlock, type TestClient } from './testApp';

const A = '/exchange/api/admin';

/** Every page of a list, following nextCursor. */
async function allPages<Item>(client: TestClient, url: string, limit: number) {
  const pages: Item[][] = [];
  let cursor: string | null = null;
  do {
    const separator = url.includes('?') ? '&' : '?';
    const next: string = `${url}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const response = await client.get(next);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as { data: Item[]; nextCursor: string | null };
    pages.push(page.data);
    cursor = page.nextCursor;
  } while (cursor !== null && pages.length < 50);
  return pages;
}

describe('staff lists by cursor (issue 40 §6)', () => {
  const t = testAppForBlock();

  it('pages admin/users newest first, each user once, ties broken by id', async () => {
    const staff = await signedInStaff(t);
    const tag = `paged${crypto.randomBytes(3).toString('hex')}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createVerifiedUser(t, uniqueEmail(tag))).id);
    // Three made in the same microsecond: only the id orders them.
    await t.pool.query(
      `update users set created_at = '2026-01-01T00:00:00.123456Z' where id = any($1)`,
      [ids.slice(2)],
    );
    const pages = await allPages<{ id: string }>(staff.client, `${A}/users?search=${tag}`, 2);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    const listed = pages.flat().map((user) => user.id);
    const tied = ids.slice(2).sort().reverse();
    expect(listed).toEqual([ids[1], ids[0], ...tied]);
  });

  it('pages the registrations queue: awaiting a decision first, oldest first; then decided', async () => {
    const staff = await signedInStaff(t);
    const customers = [];
    for (let i = 0; i < 3; i++) customers.push(await registeredCustomer(t));
    const [a, b, c] = customers.map((customer) => customer.registrationId);
    const decided = await staff.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: a,
      approved: false,
      reason: 'Not for us.',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const pages = await allPages<{ registrationId: string }>(
      staff.client,
      `${A}/onboarding/organizations`,
      1,
    );
    const listed = pages.flat().map((registration) => registration.registrationId);
    expect(listed.filter((id) => [a, b, c].includes(id))).toEqual([b, c, a]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('refuses a cursor it did not make, or one of another list, with 400 and errorMessage', async () => {
    const staff = await signedInStaff(t);
    await createVerifiedUser(t);
    await createVerifiedUser(t);
    const first = (await staff.client.get(`${A}/users?limit=1`)).json() as { nextCursor: string };
    const decoded = Buffer.from(first.nextCursor, 'base64url').toString('utf8');
    const tampered = Buffer.from(decoded.replace(/"\d+"/, '"x"')).toString('base64url');
    for (const url of [
      `${A}/users?cursor=${tampered}`,
      `${A}/users?cursor=${first.nextCursor.slice(0, -4)}`,
      `${A}/onboarding/organizations?cursor=${first.nextCursor}`,
    ]) {
      const refused = await staff.client.get(url);
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().errorMessage).toMatch(/cursor/);
    }
  });
});
