/**
 * Dates typed as MM/DD/YYYY (spec business §5.3; 1–2 digit month and day, 4-digit year), checked
 * as real calendar dates with date-fns. The wording of each reason lives in the schema (`x-date`).
 */
import { isValid, parse, startOfDay } from 'date-fns';

export const DATE_PROBLEMS = ['format', 'future'] as const;
export type DateProblem = (typeof DATE_PROBLEMS)[number];

const SHAPE = /^\d{1,2}\/\d{1,2}\/\d{4}$/;
const PATTERN = 'M/d/yyyy';

/** The date `value` names, or null when it is not a real MM/DD/YYYY date. */
export function parseUsDate(value: string): Date | null {
  if (!SHAPE.test(value)) return null;
  const date = parse(value, PATTERN, new Date(2000, 0, 1));
  return isValid(date) ? date : null;
}

export interface DateRuleOptions {
  /** Reject dates after `today` (dates of birth). */
  notInFuture?: boolean;
  /** The current day; defaults to now. */
  today?: Date;
}

/** Why `value` is not an acceptable date, or null when it is. */
export function dateProblem(value: string, options: DateRuleOptions = {}): DateProblem | null {
  const date = parseUsDate(value);
  if (!date) return 'format';
  if (options.notInFuture && date > startOfDay(options.today ?? new Date())) return 'future';
  return null;
}
