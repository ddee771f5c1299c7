import { Ajv, type ErrorObject } from 'ajv';
import {
  DECIMAL_PATTERN,
  UTC_TIME_PATTERN,
  statementSchema,
  type Statement,
} from '../../shared/api/statement';

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
