import type { EventEmitter } from 'node:events';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDecimals, collateralRows, type Statement } from '../../src/shared/api/statement';
import { SESSION_COOKIE } from '../../src/shared/api/http';
import { saveStatement } from '../../src/server/db/statements';
import { demoStatement } from '../../src/server/seed/demoReview';
import { validateStatement } from '../../src/server/statements/validateStatement';
import { freshClient } from './authHelpers';
import { registeredCustomer, signedInStaff } from './adminHelpers';
import { createTestApp, type TestApp, type TestClient } from './testApp';

const url = (organizationId: string) => `/exchange/api/web/customer/${organizationId}/statement`;

describe('GET customer/{organizationId}/statement', () => {
  let t: TestApp;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  let other: Awaited<ReturnType<typeof registeredCustomer>>;
  beforeAll(async () => {
    t = await createTestApp();
    customer = await registeredCustomer(t);
    other = await registeredCustomer(t);
    await t.pool.query(
      `update users set details = jsonb_set(details, '{approved}', 'true') where id = any($1)`,
      [[customer.id, other.id]],
    );
    await saveStatement(t.pool, {
      organizationId: customer.organizationId,
      statement: { ...demoStatement(), organizationName: 'Older' },
      asOf: '2026-11-19',
      loadedBy: null,
    });
    await saveStatement(t.pool, {
      organizationId: customer.organizationId,
      statement: demoStatement(),
      asOf: '2026-11-20',
      loadedBy: null,
    });
  });
  afterAll(async () => t.close());

  it('answers 401 when signed out', async () => {
    const response = await freshClient(t.app).get(url(customer.organizationId));
    expect(response.statusCode).toBe(401);
  });

  it('serves the newest statement of the caller’s own organization, every §3.5 field', async () => {
    const response = await customer.client.get(url(customer.organizationId));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.asOf).toBe('2026-11-20');
    expect(body.organizationName).toBe('Avery Quinn');
    expect(Object.keys(body).sort()).toEqual(
      [
        'accountSummaries',
        'asOf',
        'cashTransactions',
        'openPositions',
        'organizationName',
        'perpsFundingPayments',
        'trades',
      ].sort(),
    );
    expect(body.accountSummaries[0].cash.CustomerSegregated.endingBalance).toBe('295619.72');
    expect(body.openPositions[0].netPosition).toEqual({ tag: 'Long', contents: 3 });
    expect(body.trades[0]).toHaveProperty('fillId');
    expect(body.perpsFundingPayments['BTCUSD-PERP'].length).toBeGreaterThan(0);
  });

  it('also finds the organization by its clearing id', async () => {
    const row = await t.pool.query('select clearing_org_id from organizations where id = $1', [
      customer.organizationId,
    ]);
    const response = await customer.client.get(url(row.rows[0].clearing_org_id));
    expect(response.statusCode).toBe(200);
  });

  it('answers 403 for another organization, existing or not', async () => {
    expect((await other.client.get(url(customer.organizationId))).statusCode).toBe(403);
    expect((await other.client.get(url('NCF-NOPE'))).statusCode).toBe(403);
  });

  it('lets staff read any organization', async () => {
    const staff = await signedInStaff(t);
    expect((await staff.client.get(url(customer.organizationId))).statusCode).toBe(200);
    expect((await staff.client.get(url('NCF-NOPE'))).statusCode).toBe(404);
  });

  it('answers 404 with errorMessage when no statement is loaded', async () => {
    const response = await other.client.get(url(other.organizationId));
    expect(response.statusCode).toBe(404);
    expect(response.json().errorMessage).toBe('No statement is available yet.');
  });

  it('refuses a customer awaiting review (§6: statements for approved customers only)', async () => {
    const pending = await registeredCustomer(t);
    const response = await pending.client.get(url(pending.organizationId));
    expect(response.statusCode).toBe(403);
  });
});

describe('statement GET: conditional requests and the per-organisation cache (issue 29 §3)', () => {
  let t: TestApp;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  let other: Awaited<ReturnType<typeof registeredCustomer>>;
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  beforeAll(async () => {
    t = await createTestApp();
    customer = await registeredCustomer(t);
    other = await registeredCustomer(t);
    staff = await signedInStaff(t);
    await t.pool.query(
      `update users set details = jsonb_set(details, '{approved}', 'true') where id = any($1)`,
      [[customer.id, other.id]],
    );
    // The same statement for both organisations: equal bodies must still not share an ETag.
    for (const organizationId of [customer.organizationId, other.organizationId]) {
      await saveStatement(t.pool, {
        organizationId,
        statement: demoStatement(),
        asOf: '2026-11-20',
        loadedBy: null,
      });
    }
  });
  afterAll(async () => t.close());

  const etagOf = async (client: TestClient, organizationId: string) => {
    const response = await client.get(url(organizationId));
    expect(response.statusCode).toBe(200);
    return response.headers.etag as string;
  };

  it('answers 304 with the same strong ETag, private to the browser', async () => {
    const first = await customer.client.get(url(customer.organizationId));
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await customer.client.get(url(customer.organizationId), {
      'if-none-match': etag,
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    // A list of tags, as a browser with several cached copies sends, matches too.
    const listed = await customer.client.get(url(customer.organizationId), {
      'if-none-match': `"other", ${etag}`,
    });
    expect(listed.statusCode).toBe(304);
    const stale = await customer.client.get(url(customer.organizationId), {
      'if-none-match': '"not-the-current-one"',
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.json().asOf).toBe('2026-11-20');
  });

  it('answers a reload from memory: no query, so no statement read, serialised or compressed', async () => {
    const etag = await etagOf(customer.client, customer.organizationId);
    // Every database call of the app goes through its pool: a query, or a client taken from it.
    const calls: string[] = [];
    const pool = t.app.db as unknown as Record<
      'query' | 'connect',
      (...args: unknown[]) => unknown
    >;
    const originals = { query: pool.query, connect: pool.connect };
    for (const name of ['query', 'connect'] as const) {
      pool[name] = (...args: unknown[]) => {
        calls.push(name);
        return originals[name].apply(t.app.db, args);
      };
    }
    try {
      const again = await customer.client.get(url(customer.organizationId), {
        'if-none-match': etag,
      });
      expect(again.statusCode).toBe(304);
    } finally {
      Object.assign(pool, originals);
    }
    expect(calls).toEqual([]);
  });

  it('compares If-None-Match weakly at the route (RFC 9110 §13.1.2), never across organisations', async () => {
    const etag = await etagOf(customer.client, customer.organizationId);
    // A cache or proxy that weakened the tag (W/) still revalidates: 304 with the strong tag.
    const weak = await customer.client.get(url(customer.organizationId), {
      'if-none-match': `W/${etag}`,
    });
    expect(weak.statusCode).toBe(304);
    expect(weak.headers.etag).toBe(etag);
    // `*` matches any current answer (the customer is entitled to it: checked first).
    const any = await customer.client.get(url(customer.organizationId), { 'if-none-match': '*' });
    expect(any.statusCode).toBe(304);
    // ...to whoever may read it: `*` from another organisation is still refused.
    const stranger = await other.client.get(url(customer.organizationId), { 'if-none-match': '*' });
    expect(stranger.statusCode).toBe(403);
    // Another organisation's tag, weakened or not, never gives this one a 304.
    const theirs = await etagOf(other.client, other.organizationId);
    for (const tag of [theirs, `W/${theirs}`]) {
      const crossed = await customer.client.get(url(customer.organizationId), {
        'if-none-match': tag,
      });
      expect(crossed.statusCode, tag).toBe(200);
      expect(crossed.json().asOf).toBe('2026-11-20');
    }
  });

  it('sends the statement compressed as the browser asks, with that encoding’s own ETag', async () => {
    const plain = await customer.client.get(url(customer.organizationId));
    const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const br = await customer.client.get(url(customer.organizationId), browser);
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.headers['cache-control']).toBe('private, no-cache');
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const reload = await customer.client.get(url(customer.organizationId), {
      ...browser,
      'if-none-match': br.headers.etag as string,
    });
    expect(reload.statusCode).toBe(304);
  });

  it('checks who asks before any 304: signed out 401, another organisation 403', async () => {
    const etag = await etagOf(customer.client, customer.organizationId);
    const signedOut = await freshClient(t.app).get(url(customer.organizationId), {
      'if-none-match': etag,
    });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.headers.etag).toBeUndefined();
    const stranger = await other.client.get(url(customer.organizationId), {
      'if-none-match': etag,
    });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.headers.etag).toBeUndefined();
  });

  it('gives no 304 across organisations, even for the same statement', async () => {
    const mine = await etagOf(staff.client, customer.organizationId);
    const theirs = await etagOf(staff.client, other.organizationId);
    expect(theirs).not.toBe(mine);
    const crossed = await staff.client.get(url(other.organizationId), { 'if-none-match': mine });
    expect(crossed.statusCode).toBe(200);
    expect(crossed.headers.etag).toBe(theirs);
  });

  it('answers 200 with a new ETag once a new statement is loaded (the staff API, this instance)', async () => {
    const before = await etagOf(customer.client, customer.organizationId);
    const put = await staff.client.request(
      'PUT',
      `/exchange/api/admin/statements/${customer.organizationId}`,
      { json: { asOf: '2026-11-21', statement: demoStatement() } },
    );
    expect(put.statusCode).toBe(200);
    const after = await customer.client.get(url(customer.organizationId), {
      'if-none-match': before,
    });
    expect(after.statusCode).toBe(200);
    expect(after.json().asOf).toBe('2026-11-21');
    expect(after.headers.etag).not.toBe(before);
  });

  it('drops the cached answer on the database notification of a statement stored by anything else', async () => {
    const before = await etagOf(other.client, other.organizationId);
    // Stored straight into the database, as a tool or another instance would: only the
    // trigger's NOTIFY tells this instance.
    await saveStatement(t.pool, {
      organizationId: other.organizationId,
      statement: { ...demoStatement(), organizationName: 'Renamed' },
      asOf: '2026-11-22',
      loadedBy: null,
    });
    let response = await other.client.get(url(other.organizationId), { 'if-none-match': before });
    for (let i = 0; i < 100 && response.statusCode === 304; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      response = await other.client.get(url(other.organizationId), { 'if-none-match': before });
    }
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ asOf: '2026-11-22', organizationName: 'Renamed' });
  });
});

describe('statement GET: the session kept in memory ends with it (issue 29 §3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  /** An approved customer with a statement, read once so this instance keeps the session. */
  async function readingCustomer() {
    const customer = await registeredCustomer(t);
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
    // The approval's own notification is heard before the session is kept.
    await notificationsHeard();
    expect((await customer.client.get(url(customer.organizationId))).statusCode).toBe(200);
    expect((await customer.client.get(url(customer.organizationId))).statusCode).toBe(200);
    return customer;
  }

  /** A notification round trip: sent after everything before it, so heard after it too. */
  async function notificationsHeard() {
    let heard: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (heard = resolve));
    // Listening before the NOTIFY is sent: one sent earlier would never arrive.
    await t.app.notifications.listen('test_heard', () => heard());
    await t.pool.query(`notify test_heard`);
    await arrived;
  }

  it('answers 401 at once after signing out here', async () => {
    const customer = await readingCustomer();
    const token = customer.client.cookies.get(SESSION_COOKIE)!;
    // The delete's notification held back: this instance must not need it for its own sign-out.
    const connection = (t.app.notifications as unknown as { client: EventEmitter }).client;
    const handlers = connection.listeners('notification') as Array<(message: unknown) => void>;
    connection.removeAllListeners('notification');
    try {
      const signout = await customer.client.post('/exchange/api/web/auth/signout');
      expect(signout.statusCode).toBe(200);
      // The cookie the browser held, sent again (as a stolen copy would be).
      customer.client.cookies.set(SESSION_COOKIE, token);
      expect((await customer.client.get(url(customer.organizationId))).statusCode).toBe(401);
    } finally {
      for (const handler of handlers) connection.on('notification', handler);
    }
  });

  it('answers 401 once a session ended anywhere else (the delete’s notification)', async () => {
    const customer = await readingCustomer();
    // As another instance's sign-out, or the profile page's "sign out other sessions", would.
    await t.pool.query('delete from sessions where user_id = $1', [customer.id]);
    await notificationsHeard();
    expect((await customer.client.get(url(customer.organizationId))).statusCode).toBe(401);
  });

  it('answers 403 once the approval is withdrawn, and for a clearing id that is no longer theirs', async () => {
    const customer = await readingCustomer();
    const clearing = await t.pool.query<{ clearing_org_id: string }>(
      'select clearing_org_id from organizations where id = $1',
      [customer.organizationId],
    );
    const clearingId = clearing.rows[0]!.clearing_org_id;
    expect((await customer.client.get(url(clearingId))).statusCode).toBe(200);
    await t.pool.query(`update organizations set clearing_org_id = $2 where id = $1`, [
      customer.organizationId,
      `${clearingId}X`,
    ]);
    await notificationsHeard();
    expect((await customer.client.get(url(clearingId))).statusCode).toBe(403);
    expect((await customer.client.get(url(`${clearingId}X`))).statusCode).toBe(200);
    await t.pool.query(
      `update users set details = jsonb_set(details, '{approved}', 'false') where id = $1`,
      [customer.id],
    );
    await notificationsHeard();
    expect((await customer.client.get(url(customer.organizationId))).statusCode).toBe(403);
  });

  it('answers from memory only while the notifications are heard', async () => {
    const customer = await readingCustomer();
    // Ended without a word (triggers off in this connection): only the notification tells.
    const quiet = await t.pool.connect();
    try {
      await quiet.query('set session_replication_role = replica');
      await quiet.query('delete from sessions where user_id = $1', [customer.id]);
    } finally {
      await quiet.query('set session_replication_role = origin');
      quiet.release();
    }
    // Kept in memory: this is the read the cache saves.
    expect((await customer.client.get(url(customer.organizationId))).statusCode).toBe(200);
    const listener = t.app.notifications as unknown as { client: unknown };
    const client = listener.client;
    listener.client = undefined; // as while the connection is lost, before it is back
    try {
      expect((await customer.client.get(url(customer.organizationId))).statusCode).toBe(401);
    } finally {
      listener.client = client;
    }
  });
});

describe('statement validation', () => {
  it('accepts the demo statement', () => {
    expect(validateStatement(demoStatement())).toEqual({ valid: true, errors: [] });
  });

  it('names each wrong field with a readable message', () => {
    const bad = structuredClone(demoStatement()) as unknown as Record<string, unknown> & Statement;
    bad.accountSummaries[0]!.netLiquidatingValue = 301594.52 as unknown as string;
    (bad.openPositions[0]!.netPosition as { tag: string }).tag = 'Flat';
    delete (bad as Partial<Statement>).trades;
    const { valid, errors } = validateStatement(bad);
    expect(valid).toBe(false);
    expect(errors).toContain('(the statement): trades is missing');
    expect(errors).toContain('/accountSummaries/0/netLiquidatingValue: must be string');
    expect(errors).toContain('/openPositions/0/netPosition/tag: must be one of Long, Short');
  });

  it('checks what the schema cannot: cash keys, funding accounts, intervals, decimals', () => {
    const bad = structuredClone(demoStatement());
    bad.accountSummaries[0]!.cash = {
      Wrong: { ...bad.accountSummaries[0]!.cash.CustomerSegregated! },
    };
    bad.perpsFundingPayments['BTCUSD-PERP']![0]!.externalAccountId = 'NOPE';
    const { errors } = validateStatement(bad);
    expect(errors).toContain(
      '/accountSummaries/0/cash/Wrong: the key must equal its origin ("CustomerSegregated")',
    );
    expect(errors.some((e) => e.includes('"NOPE" is not an account'))).toBe(true);
    const money = structuredClone(demoStatement());
    money.trades[0]!.price = '1,000.00';
    expect(validateStatement(money).errors).toEqual([
      '/trades/0/price: must be a decimal string such as "1234.56"',
    ]);
  });
});

describe('statement helpers', () => {
  it('derives the collateral rows from cash by origin', () => {
    const rows = collateralRows(demoStatement());
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      externalAccountId: 'NCF-100001-F01',
      origin: 'CustomerSegregated',
    });
  });

  it('adds decimal strings exactly', () => {
    expect(addDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(addDecimals(['-53.50', '-21.40', '-0.38'])).toBe('-75.28');
    expect(addDecimals(['100', '-100.005'])).toBe('-0.005');
    expect(addDecimals([])).toBe('0');
  });

  it('the demo statement adds up: ending cash, net liquidating value, margin excess', () => {
    for (const account of demoStatement().accountSummaries) {
      const cash = account.cash.CustomerSegregated!;
      expect(addDecimals([cash.endingBalance, account.openTradeEquity])).toBe(
        account.netLiquidatingValue,
      );
      expect(addDecimals([account.netLiquidatingValue, `-${account.initialMargin}`])).toBe(
        account.marginExcess,
      );
    }
  });
});
