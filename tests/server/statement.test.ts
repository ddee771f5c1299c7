import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDecimals, collateralRows, type Statement } from '../../src/shared/api/statement';
import { saveStatement } from '../../src/server/db/statements';
import { demoStatement } from '../../src/server/seed/demoReview';
import { validateStatement } from '../../src/server/statements/validateStatement';
import { freshClient } from './authHelpers';
import { registeredCustomer, signedInStaff } from './adminHelpers';
import { createTestApp, type TestApp } from './testApp';

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
