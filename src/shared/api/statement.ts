/**
 * The customer statement (specification §2.5, §3.5), served by
 * `GET /exchange/api/web/customer/{organizationId}/statement`.
 *
 * Money, prices and rates are **decimal strings** (`"-1234.50"`, `"97450"`): a statement is a
 * record of exact amounts, and binary floats would turn `0.1 + 0.2` into `0.30000000000000004`
 * on the way to the screen. Format them for display without converting through `number` where
 * sums are needed (`addDecimals` below). Contract counts are integers and travel as numbers.
 *
 * Signs are from the customer's point of view: credits positive, debits (fees, withdrawals,
 * funding paid) negative. Times are ISO 8601 in UTC (`2026-05-14T14:03:22.118Z`).
 */

import type { FromSchema } from 'json-schema-to-ts';

/** A decimal number as a string: an optional minus, digits, an optional fraction. */
export type Decimal = string;

/** The shape every `Decimal` has (no exponent, no thousands separators, no plus sign). */
export const DECIMAL_PATTERN = '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$';

/** ISO 8601 in UTC with an optional fraction: what every statement time must be. */
export const UTC_TIME_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$';

const decimal = { type: 'string', pattern: DECIMAL_PATTERN } as const;
const time = { type: 'string', pattern: UTC_TIME_PATTERN } as const;
const text = { type: 'string', minLength: 1, maxLength: 200 } as const;
const contracts = { type: 'integer', minimum: 0, maximum: 1_000_000_000 } as const;

/**
 * Cash of one origin. An *origin* is the segregation class the funds are held under, e.g.
 * `CustomerSegregated` (CFTC 4d futures customer funds) or `CustomerSecured` (30.7); amounts in USD.
 */
const cashBalanceSchema = {
  type: 'object',
  properties: {
    origin: text,
    beginningBalance: decimal,
    depositsAndWithdrawals: decimal,
    endingBalance: decimal,
  },
  required: ['origin', 'beginningBalance', 'depositsAndWithdrawals', 'endingBalance'],
  additionalProperties: false,
} as const;

/** One clearing account's summary. */
const accountSummarySchema = {
  type: 'object',
  properties: {
    externalAccountId: text,
    clearingAccountId: text,
    cash: {
      type: 'object',
      additionalProperties: cashBalanceSchema,
      description: "Cash by origin; each key equals its entry's `origin`.",
    },
    purchasesAndSales: decimal,
    longOptionValue: decimal,
    shortOptionValue: decimal,
    openTradeEquity: decimal,
    netLiquidatingValue: decimal,
    initialMargin: decimal,
    maintenanceMargin: decimal,
    marginExcess: decimal,
    fees: {
      type: 'object',
      additionalProperties: decimal,
      description: 'Fees by fee type (`Exchange`, `Clearing`, `NFA`), as charged (negative).',
    },
  },
  required: [
    'externalAccountId',
    'clearingAccountId',
    'cash',
    'purchasesAndSales',
    'longOptionValue',
    'shortOptionValue',
    'openTradeEquity',
    'netLiquidatingValue',
    'initialMargin',
    'maintenanceMargin',
    'marginExcess',
    'fees',
  ],
  additionalProperties: false,
} as const;
export type AccountSummary = FromSchema<typeof accountSummarySchema>;

/** A net position: the side as `tag`, the number of contracts (always positive) as `contents`. */
const netPositionSchema = {
  type: 'object',
  properties: { tag: { type: 'string', enum: ['Long', 'Short'] }, contents: contracts },
  required: ['tag', 'contents'],
  additionalProperties: false,
} as const;

const openPositionSchema = {
  type: 'object',
  properties: {
    symbol: text,
    marketPrice: { ...decimal, description: 'The settlement price.' },
    netPosition: netPositionSchema,
    vwaPrice: {
      ...decimal,
      description: 'The volume-weighted average price the position was opened at.',
    },
    openTradeEquity: decimal,
  },
  required: ['symbol', 'marketPrice', 'netPosition', 'vwaPrice', 'openTradeEquity'],
  additionalProperties: false,
} as const;
export type OpenPosition = FromSchema<typeof openPositionSchema>;

/** A trade confirmation. */
const tradeSchema = {
  type: 'object',
  properties: {
    time,
    symbol: text,
    side: { type: 'string', enum: ['Buy', 'Sell'] },
    quantity: { ...contracts, description: 'Contracts.' },
    price: decimal,
    notionalValue: decimal,
    fillId: text,
    executionId: text,
  },
  required: [
    'time',
    'symbol',
    'side',
    'quantity',
    'price',
    'notionalValue',
    'fillId',
    'executionId',
  ],
  additionalProperties: false,
} as const;
export type Trade = FromSchema<typeof tradeSchema>;

/**
 * A collateral (cash) transaction: a deposit, withdrawal, fee or funding settlement.
 * `transactionOrigin` uses the origins of `CashBalance`; `amount` is in `currency`.
 */
const collateralTransactionSchema = {
  type: 'object',
  properties: {
    transactionOrigin: text,
    transactionTime: time,
    transactionType: text,
    currency: { type: 'string', pattern: '^[A-Z]{3,5}$' },
    amount: decimal,
    transactionId: text,
  },
  required: [
    'transactionOrigin',
    'transactionTime',
    'transactionType',
    'currency',
    'amount',
    'transactionId',
  ],
  additionalProperties: false,
} as const;
export type CollateralTransaction = FromSchema<typeof collateralTransactionSchema>;

/** A perpetual future's funding payment for one interval (received positive, paid negative). */
const fundingPaymentSchema = {
  type: 'object',
  properties: {
    externalAccountId: text,
    intervalOpenTime: time,
    intervalCloseTime: time,
    amount: decimal,
  },
  required: ['externalAccountId', 'intervalOpenTime', 'intervalCloseTime', 'amount'],
  additionalProperties: false,
} as const;
export type FundingPayment = FromSchema<typeof fundingPaymentSchema>;

const statementProperties = {
  organizationName: text,
  accountSummaries: { type: 'array', maxItems: 100, items: accountSummarySchema },
  openPositions: { type: 'array', maxItems: 10_000, items: openPositionSchema },
  trades: { type: 'array', maxItems: 100_000, items: tradeSchema },
  cashTransactions: { type: 'array', maxItems: 100_000, items: collateralTransactionSchema },
  perpsFundingPayments: {
    type: 'object',
    additionalProperties: { type: 'array', maxItems: 100_000, items: fundingPaymentSchema },
    description: 'Funding payments by perpetual product symbol; `{}` when there are none.',
  },
} as const;

const statementRequired = [
  'organizationName',
  'accountSummaries',
  'openPositions',
  'trades',
  'cashTransactions',
  'perpsFundingPayments',
] as const;

/**
 * The statement, exactly the fields of §3.5: validates a statement before it is stored
 * (src/server/statements/validateStatement.ts) and describes the calls that answer one.
 */
export const statementSchema = {
  type: 'object',
  properties: statementProperties,
  required: statementRequired,
  additionalProperties: false,
} as const;
export type Statement = FromSchema<typeof statementSchema>;

/** What the statement call answers: the statement and the business day it is as of. */
export const statementResponseSchema = {
  type: 'object',
  properties: {
    ...statementProperties,
    asOf: { type: 'string', description: '`yyyy-MM-dd`.' },
  },
  required: [...statementRequired, 'asOf'],
  additionalProperties: false,
} as const;
export type StatementResponse = FromSchema<typeof statementResponseSchema>;

/**
 * One row of the Collateral section. The specification lists the section but no fields of its
 * own: collateral is the cash each account holds by origin (its ending balance), so the rows
 * derive from `AccountSummary.cash` rather than travelling twice.
 */
interface CollateralRow {
  externalAccountId: string;
  clearingAccountId: string;
  origin: string;
  beginningBalance: Decimal;
  depositsAndWithdrawals: Decimal;
  endingBalance: Decimal;
}

/** The Collateral section's rows, account by account, origins in key order. */
export function collateralRows(statement: Pick<Statement, 'accountSummaries'>): CollateralRow[] {
  return statement.accountSummaries.flatMap((account) =>
    Object.keys(account.cash)
      .sort()
      .map((key) => {
        const cash = account.cash[key]!;
        return {
          externalAccountId: account.externalAccountId,
          clearingAccountId: account.clearingAccountId,
          origin: cash.origin,
          beginningBalance: cash.beginningBalance,
          depositsAndWithdrawals: cash.depositsAndWithdrawals,
          endingBalance: cash.endingBalance,
        };
      }),
  );
}

/** Exact sum of decimal strings (for totals); the result has the largest scale of the inputs. */
export function addDecimals(values: readonly Decimal[]): Decimal {
  const scale = Math.max(0, ...values.map((value) => value.split('.')[1]?.length ?? 0));
  let total = 0n;
  for (const value of values) {
    if (!new RegExp(DECIMAL_PATTERN).test(value)) throw new Error(`Not a decimal: ${value}`);
    const negative = value.startsWith('-');
    const [whole, fraction = ''] = value.replace('-', '').split('.');
    const units = BigInt(`${whole}${fraction.padEnd(scale, '0')}`);
    total += negative ? -units : units;
  }
  const sign = total < 0n ? '-' : '';
  const digits = (total < 0n ? -total : total).toString().padStart(scale + 1, '0');
  return scale === 0
    ? `${sign}${digits}`
    : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
