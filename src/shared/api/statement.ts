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

/** A decimal number as a string: an optional minus, digits, an optional fraction. */
export type Decimal = string;

/** The shape every `Decimal` has (no exponent, no thousands separators, no plus sign). */
export const DECIMAL_PATTERN = '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$';

/**
 * Cash of one origin. An *origin* is the segregation class the funds are held under, e.g.
 * `CustomerSegregated` (CFTC 4d futures customer funds) or `CustomerSecured` (30.7); amounts in USD.
 */
export interface CashBalance {
  origin: string;
  beginningBalance: Decimal;
  depositsAndWithdrawals: Decimal;
  endingBalance: Decimal;
}

/** One clearing account's summary. */
export interface AccountSummary {
  externalAccountId: string;
  clearingAccountId: string;
  /** Cash by origin; each key equals its entry's `origin`. */
  cash: Record<string, CashBalance>;
  purchasesAndSales: Decimal;
  longOptionValue: Decimal;
  shortOptionValue: Decimal;
  openTradeEquity: Decimal;
  netLiquidatingValue: Decimal;
  initialMargin: Decimal;
  maintenanceMargin: Decimal;
  marginExcess: Decimal;
  /** Fees by fee type (`Exchange`, `Clearing`, `NFA`), as charged (negative). */
  fees: Record<string, Decimal>;
}

type PositionSide = 'Long' | 'Short';

/** A net position: the side as `tag`, the number of contracts (always positive) as `contents`. */
export interface NetPosition {
  tag: PositionSide;
  contents: number;
}

export interface OpenPosition {
  symbol: string;
  /** The settlement price. */
  marketPrice: Decimal;
  netPosition: NetPosition;
  /** The volume-weighted average price the position was opened at. */
  vwaPrice: Decimal;
  openTradeEquity: Decimal;
}

export type TradeSide = 'Buy' | 'Sell';

/** A trade confirmation. */
export interface Trade {
  time: string;
  symbol: string;
  side: TradeSide;
  /** Contracts. */
  quantity: number;
  price: Decimal;
  notionalValue: Decimal;
  fillId: string;
  executionId: string;
}

/**
 * A collateral (cash) transaction: a deposit, withdrawal, fee or funding settlement.
 * `transactionOrigin` uses the origins of `CashBalance`; `amount` is in `currency`.
 */
export interface CollateralTransaction {
  transactionOrigin: string;
  transactionTime: string;
  transactionType: string;
  currency: string;
  amount: Decimal;
  transactionId: string;
}

/** A perpetual future's funding payment for one interval (received positive, paid negative). */
export interface FundingPayment {
  externalAccountId: string;
  intervalOpenTime: string;
  intervalCloseTime: string;
  amount: Decimal;
}

/** The statement, exactly the fields of §3.5. */
export interface Statement {
  organizationName: string;
  accountSummaries: AccountSummary[];
  openPositions: OpenPosition[];
  trades: Trade[];
  cashTransactions: CollateralTransaction[];
  /** Funding payments by perpetual product symbol; `{}` when there are none. */
  perpsFundingPayments: Record<string, FundingPayment[]>;
}

/** What the statement call answers: the statement and the business day it is as of. */
export interface StatementResponse extends Statement {
  /** `yyyy-MM-dd`. */
  asOf: string;
}

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
