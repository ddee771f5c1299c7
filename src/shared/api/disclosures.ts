/**
 * The regulatory disclosures (business §2.4, §3.6; CFTC Rules 1.55(k) and 1.55(o)(1)):
 * categories, the shape of `GET /clearing/api/web/disclosures`, and the document URLs.
 * Every date here is a calendar date in UTC, written as ISO 8601 text.
 */

export const DISCLOSURE_CATEGORIES = [
  'firm-disclosure',
  'daily-segregation',
  'capital-summary',
  'monthly-segregation',
  'audited-financial',
] as const;

export type DisclosureCategory = (typeof DISCLOSURE_CATEGORIES)[number];

export function isDisclosureCategory(value: string): value is DisclosureCategory {
  return (DISCLOSURE_CATEGORIES as readonly string[]).includes(value);
}

/** Category headings, spelling as the product has it (business §2.4: 'Persuant' included). */
export const DISCLOSURE_HEADINGS: Record<DisclosureCategory, string> = {
  'firm-disclosure': 'Firm Disclosure - Rule 1.55(k)',
  'daily-segregation':
    'Customer Funds Computations for current 12 Month Period Persuant to CFTC Rule 1.55(o)(1)(i,ii,iii)',
  'capital-summary': 'Prior 12 month-end net capital History',
  'monthly-segregation':
    'Month-end Customer Funds Computations Pursuant to CFTC Rule 1.55(o)(1)(vi)',
  'audited-financial': 'Audited Financial Statement',
};

/**
 * What a document's period looks like per category, which is also its file name:
 * a day `yyyy-MM-dd` (daily segregation; the firm disclosure's effective date), a month
 * `yyyy-MM` (month-end segregation and capital), or a year `yyyy` (audited financials).
 */
type DisclosurePeriodKind = 'day' | 'month' | 'year';

export const DISCLOSURE_PERIOD_KIND: Record<DisclosureCategory, DisclosurePeriodKind> = {
  'firm-disclosure': 'day',
  'daily-segregation': 'day',
  'capital-summary': 'month',
  'monthly-segregation': 'month',
  'audited-financial': 'year',
};

const PERIOD_PATTERN: Record<DisclosurePeriodKind, RegExp> = {
  day: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  month: /^\d{4}-(0[1-9]|1[0-2])$/,
  year: /^\d{4}$/,
};

/** Whether `period` is a well-formed (and, for a day, real) period of the category. */
export function isDisclosurePeriod(category: DisclosureCategory, period: string): boolean {
  const kind = DISCLOSURE_PERIOD_KIND[category];
  if (!PERIOD_PATTERN[kind].test(period)) return false;
  if (kind !== 'day') return true;
  // 2026-02-30 matches the pattern; a real date survives the round trip.
  return new Date(`${period}T00:00:00Z`).toISOString().slice(0, 10) === period;
}

/** The name that always answers a category's newest document. */
export const LATEST_NAME = 'latest';

/** `/clearing/disclosures/{category}/{name}.pdf`: a period, or `latest` (DECISIONS). */
export function disclosurePath(category: DisclosureCategory, name: string): string {
  return `/clearing/disclosures/${category}/${name}.pdf`;
}

export function latestDisclosurePath(category: DisclosureCategory): string {
  return disclosurePath(category, LATEST_NAME);
}

/** One daily segregation statement. */
export interface DailyDisclosure {
  /** The business day, `yyyy-MM-dd` (UTC). */
  dailyDisclosureDay: string;
  dailyDisclosurePath: string;
}

/** The daily statements of one month, newest day first. */
export interface DailyDisclosureMonth {
  /** `yyyy-MM` (UTC). */
  month: string;
  days: DailyDisclosure[];
}

/** One month-end document (segregation statement or net capital summary). */
export interface MonthlyDisclosure {
  /** `yyyy-MM` (UTC). */
  monthlyDisclosureMonth: string;
  monthlyDisclosurePath: string;
}

/** One year's certified annual financial statement. */
export interface YearlyDisclosure {
  /** `yyyy`. */
  yearlyDisclosureYear: string;
  yearlyDisclosurePath: string;
}

/** The firm disclosure document in force (Rule 1.55(k)). */
export interface FirmDisclosure {
  /** Its effective date, `yyyy-MM-dd`. */
  firmDisclosureDate: string;
  firmDisclosurePath: string;
  /** Always `latestDisclosurePath('firm-disclosure')`: the link the index page shows. */
  firmDisclosureLatestPath: string;
}

/**
 * `GET /clearing/api/web/disclosures` (public). Every list is newest first and holds what the
 * rules ask to be published: daily statements of the current 12 months (grouped by month),
 * the 12 latest month-ends, the latest audited year.
 */
export interface DisclosuresResponse {
  firmDisclosure: FirmDisclosure | null;
  dailySegregation: DailyDisclosureMonth[];
  capitalSummary: MonthlyDisclosure[];
  monthlySegregation: MonthlyDisclosure[];
  auditedFinancial: YearlyDisclosure[];
}

export const DISCLOSURES_API_PATH = '/clearing/api/web/disclosures';
