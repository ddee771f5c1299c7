/**
 * Dates typed as MM/DD/YYYY (spec business §5.3; 1–2 digit month and day, 4-digit year), checked
 * as real calendar dates with date-fns. The wording of each reason lives in the schema (`x-date`).
 */
import { differenceInYears, isValid, parse, startOfDay } from 'date-fns';

/**
 * - `format`: not MM/DD/YYYY at all;
 * - `notADate`: the right shape, but no such day (02/30/1988);
 * - `future`: after today (dates of birth);
 * - `minor`: less than {@link ADULT_AGE} years before today (futures accounts are for adults).
 */
export const DATE_PROBLEMS = ['format', 'notADate', 'future', 'minor'] as const;
export type DateProblem = (typeof DATE_PROBLEMS)[number];

/** Age of majority for a futures account holder or an affiliated person. */
export const ADULT_AGE = 18;

const SHAPE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
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
  /** Reject dates less than ADULT_AGE years before `today` (dates of birth of adults). */
  adult?: boolean;
  /** The current day; defaults to now. */
  today?: Date;
}

/** Why `value` is not an acceptable date, or null when it is. */
export function dateProblem(value: string, options: DateRuleOptions = {}): DateProblem | null {
  if (!SHAPE.test(value)) return 'format';
  const date = parseUsDate(value);
  if (!date) return 'notADate';
  const today = startOfDay(options.today ?? new Date());
  if (options.notInFuture && date > today) return 'future';
  if (options.adult && date <= today && differenceInYears(today, date) < ADULT_AGE) return 'minor';
  return null;
}
