/**
 * How the statement shows numbers and times. Decisions (a finance user's expectations):
 * - Amounts arrive as decimal strings and are formatted as strings: they never pass through a
 *   binary float, so `"0.10"` stays `0.10` and large balances keep every cent.
 * - Thousands separators are commas; the decimal point a full stop (en-US, the firm's locale).
 * - Negatives take a leading ASCII minus (`-1,234.50`), not parentheses and not U+2212: what is
 *   copied from a table then pastes into a spreadsheet as a number. Zero never shows a sign.
 * - Money keeps at least 2 decimals and never loses digits the statement sent; where the
 *   specification fixes the scale (collateral transactions: 2 decimals), extra digits are
 *   rounded half away from zero, exactly.
 * - Prices keep the scale the statement sent (the product's tick), with separators.
 * - Times are UTC, `yyyy-MM-dd HH:mm:ss`, in columns labelled '(UTC)'.
 */
import { DECIMAL_PATTERN, type Decimal } from '../../../../shared/api/statement';

const decimalPattern = new RegExp(DECIMAL_PATTERN);

interface DecimalFormat {
  /** Pad the fraction to at least this many digits. */
  minFractionDigits?: number;
  /** Round (half away from zero) to at most this many digits. */
  maxFractionDigits?: number;
}

function groupThousands(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Rounds `whole.fraction` (unsigned digits) to `digits` fraction digits, half away from zero. */
function roundDigits(whole: string, fraction: string, digits: number): [string, string] {
  if (fraction.length <= digits) return [whole, fraction];
  const divisor = 10n ** BigInt(fraction.length - digits);
  const units = BigInt(`${whole}${fraction}`);
  let rounded = units / divisor;
  if ((units % divisor) * 2n >= divisor) rounded += 1n;
  const text = rounded.toString().padStart(digits + 1, '0');
  return digits === 0 ? [text, ''] : [text.slice(0, -digits), text.slice(-digits)];
}

/** Formats a decimal string for display (see the module note); anything else is shown as sent. */
export function formatDecimal(value: Decimal, format: DecimalFormat = {}): string {
  if (!decimalPattern.test(value)) return value;
  const negative = value.startsWith('-');
  const [rawWhole = '0', rawFraction = ''] = value.replace('-', '').split('.');
  let [whole, fraction] =
    format.maxFractionDigits === undefined
      ? [rawWhole, rawFraction]
      : roundDigits(rawWhole, rawFraction, format.maxFractionDigits);
  fraction = fraction.padEnd(format.minFractionDigits ?? 0, '0');
  whole = whole.replace(/^0+(?=\d)/, '');
  const isZero = /^[0]*$/.test(whole + fraction);
  const sign = negative && !isZero ? '-' : '';
  return `${sign}${groupThousands(whole)}${fraction ? `.${fraction}` : ''}`;
}

/** Money: at least 2 decimals, every digit sent kept. */
export function formatMoney(value: Decimal): string {
  return formatDecimal(value, { minFractionDigits: 2 });
}

/** Money with exactly 2 decimals (collateral transactions, specification §9). */
export function formatMoney2(value: Decimal): string {
  return formatDecimal(value, { minFractionDigits: 2, maxFractionDigits: 2 });
}

/** A price at the scale it was sent. */
export function formatPrice(value: Decimal): string {
  return formatDecimal(value);
}

const quantityFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Contract counts (integers). */
export function formatQuantity(value: number): string {
  return quantityFormat.format(value);
}

/** An ISO time as `yyyy-MM-dd HH:mm:ss` in UTC (the column says UTC). */
export function formatUtcTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

const asOfFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

/** The business day `yyyy-MM-dd` as 'November 20, 2026'. */
export function formatBusinessDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  return asOfFormat.format(
    new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))),
  );
}

/** `CustomerSegregated` → `Customer Segregated` (origins and transaction types are identifiers). */
export function humanize(identifier: string): string {
  return identifier.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
}
