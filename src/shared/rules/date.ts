/**
 * Dates typed as MM/DD/YYYY (spec business §5.3; 1–2 digit month and day, 4-digit year), checked
 * as real calendar dates. The wording of each reason lives in the schema (`x-date`).
 */
import { differenceInYears, startOfDay, subYears } from 'date-fns';

/**
 * - `format`: not MM/DD/YYYY at all;
 * - `notADate`: the right shape, but no such day (02/30/1988);
 * - `future`: after today (dates of birth);
 * - `minor`: less than {@link ADULT_AGE} years before today (futures accounts are for adults);
 * - `tooOld`: more than {@link OLDEST_AGE} years before today (a year typed wrong: 01/01/1850).
 */
export const DATE_PROBLEMS = ['format', 'notADate', 'future', 'minor', 'tooOld'] as const;
type DateProblem = (typeof DATE_PROBLEMS)[number];

/** Age of majority for a futures account holder or an affiliated person. */
const ADULT_AGE = 18;
/** Older than anyone alive has been (the oldest recorded lived to 122): a date of birth before is a typo. */
const OLDEST_AGE = 120;

const SHAPE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * The date `value` names (local midnight), or null when it is not a real MM/DD/YYYY date. By
 * hand rather than date-fns' `parse`: a business form checks a date of birth per affiliated
 * person, and `parse` was most of a validation's time at 50 persons.
 */
export function parseUsDate(value: string): Date | null {
  const match = SHAPE.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  const day = Number(match[2]);
  const year = Number(match[3]);
  const date = new Date(2000, 0, 1);
  date.setFullYear(year, month - 1, day); // setFullYear: years below 100 stay themselves
  const real =
    date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
  return real ? date : null;
}

interface DateRuleOptions {
  /** Reject dates after `today` (dates of birth). */
  notInFuture?: boolean;
  /** Reject dates less than ADULT_AGE years before `today` (dates of birth of adults). */
  adult?: boolean;
  /** Reject dates more than OLDEST_AGE years before `today` (dates of birth). */
  living?: boolean;
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
  if (options.living && date < subYears(today, OLDEST_AGE)) return 'tooOld';
  return null;
}
