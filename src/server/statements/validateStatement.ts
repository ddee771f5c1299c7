import { Ajv, type ErrorObject } from 'ajv';
import { DECIMAL_PATTERN, type Statement } from '../../shared/api/statement';

/** ISO 8601 in UTC with an optional fraction: what every statement time must be. */
const UTC_TIME_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$';

const decimal = { type: 'string', pattern: DECIMAL_PATTERN } as const;
const time = { type: 'string', pattern: UTC_TIME_PATTERN } as const;
const text = { type: 'string', minLength: 1, maxLength: 200 } as const;
const contracts = { type: 'integer', minimum: 0, maximum: 1_000_000_000 } as const;

const object = (properties: Record<string, object>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const cashBalance = object({
  origin: text,
  beginningBalance: decimal,
  depositsAndWithdrawals: decimal,
  endingBalance: decimal,
});

const fundingPayment = object({
  externalAccountId: text,
  intervalOpenTime: time,
  intervalCloseTime: time,
  amount: decimal,
});

/**
 * The JSON Schema of `Statement` (src/shared/api/statement.ts): validates a statement before it is
 * stored, and serialises the statement call's answer (nothing outside these fields leaves).
 */
export const statementSchema = object({
  organizationName: text,
  accountSummaries: {
    type: 'array',
    maxItems: 100,
    items: object({
      externalAccountId: text,
      clearingAccountId: text,
      cash: { type: 'object', additionalProperties: cashBalance },
      purchasesAndSales: decimal,
      longOptionValue: decimal,
      shortOptionValue: decimal,
      openTradeEquity: decimal,
      netLiquidatingValue: decimal,
      initialMargin: decimal,
      maintenanceMargin: decimal,
      marginExcess: decimal,
      fees: { type: 'object', additionalProperties: decimal },
    }),
  },
  openPositions: {
    type: 'array',
    maxItems: 10_000,
    items: object({
      symbol: text,
      marketPrice: decimal,
      netPosition: object({
        tag: { type: 'string', enum: ['Long', 'Short'] },
        contents: contracts,
      }),
      vwaPrice: decimal,
      openTradeEquity: decimal,
    }),
  },
  trades: {
    type: 'array',
    maxItems: 100_000,
    items: object({
      time,
      symbol: text,
      side: { type: 'string', enum: ['Buy', 'Sell'] },
      quantity: contracts,
      price: decimal,
      notionalValue: decimal,
      fillId: text,
      executionId: text,
    }),
  },
  cashTransactions: {
    type: 'array',
    maxItems: 100_000,
    items: object({
      transactionOrigin: text,
      transactionTime: time,
      transactionType: text,
      currency: { type: 'string', pattern: '^[A-Z]{3,5}$' },
      amount: decimal,
      transactionId: text,
    }),
  },
  perpsFundingPayments: {
    type: 'object',
    additionalProperties: { type: 'array', maxItems: 100_000, items: fundingPayment },
  },
});

/** The statement call's answer: the statement plus its business day. */
export const statementResponseSchema = {
  ...statementSchema,
  properties: {
    ...statementSchema.properties,
    asOf: { type: 'string' },
  },
  required: [...statementSchema.required, 'asOf'],
};

const ajv = new Ajv({ allErrors: true, strict: true });
const check = ajv.compile<Statement>(statementSchema);

interface StatementCheck {
  valid: boolean;
  /** Readable messages, each starting with the JSON pointer of what is wrong. */
  errors: string[];
}

/**
 * Checks a statement's shape (the schema) and what a schema cannot say: each cash key names its
 * own origin, funding payments name a listed account, intervals run forwards, times are real.
 * At most 50 messages, so a wrong file does not flood the operator's terminal.
 */
export function validateStatement(value: unknown): StatementCheck {
  if (!check(value)) {
    return { valid: false, errors: (check.errors ?? []).slice(0, 50).map(describe) };
  }
  const errors: string[] = [];
  const accounts = new Set(value.accountSummaries.map((account) => account.externalAccountId));
  value.accountSummaries.forEach((account, index) => {
    for (const [key, cash] of Object.entries(account.cash)) {
      if (key !== cash.origin) {
        errors.push(
          `/accountSummaries/${index}/cash/${key}: the key must equal its origin ("${cash.origin}")`,
        );
      }
    }
  });
  const badTime = (pointer: string, iso: string) => {
    if (Number.isNaN(Date.parse(iso))) errors.push(`${pointer}: "${iso}" is not a real time`);
  };
  value.trades.forEach((trade, index) => badTime(`/trades/${index}/time`, trade.time));
  value.cashTransactions.forEach((transaction, index) =>
    badTime(`/cashTransactions/${index}/transactionTime`, transaction.transactionTime),
  );
  for (const [product, payments] of Object.entries(value.perpsFundingPayments)) {
    payments.forEach((payment, index) => {
      const pointer = `/perpsFundingPayments/${product}/${index}`;
      if (!accounts.has(payment.externalAccountId)) {
        errors.push(
          `${pointer}/externalAccountId: "${payment.externalAccountId}" is not an account of this statement`,
        );
      }
      if (Date.parse(payment.intervalCloseTime) <= Date.parse(payment.intervalOpenTime)) {
        errors.push(`${pointer}: intervalCloseTime must be after intervalOpenTime`);
      }
    });
  }
  return { valid: errors.length === 0, errors: errors.slice(0, 50) };
}

function describe(error: ErrorObject): string {
  const at = error.instancePath || '(the statement)';
  switch (error.keyword) {
    case 'pattern':
      if (error.params.pattern === DECIMAL_PATTERN) {
        return `${at}: must be a decimal string such as "1234.56"`;
      }
      if (error.params.pattern === UTC_TIME_PATTERN) {
        return `${at}: must be a UTC time such as "2026-05-14T14:03:22Z"`;
      }
      return `${at}: must match ${String(error.params.pattern)}`;
    case 'required':
      return `${at}: ${String(error.params.missingProperty)} is missing`;
    case 'additionalProperties':
      return `${at}: unknown field ${String(error.params.additionalProperty)}`;
    case 'enum':
      return `${at}: must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    default:
      return `${at}: ${error.message ?? 'is not valid'}`;
  }
}
