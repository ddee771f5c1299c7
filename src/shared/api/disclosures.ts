/**
 * The regulatory disclosures (business §2.4, §3.6; CFTC Rules 1.55(k) and 1.55(o)(1)):
 * categories, the shape of `GET /clearing/api/web/disclosures`, and the document URLs.
 * Every date here is a calendar date in UTC, written as ISO 8601 text.
 */
import type { FromSchema } from 'json-schema-to-ts';

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

/**
 * `/clearing/disclosures/{category}/{name}.pdf`: a period, or `latest` (docs/decisions.md, Paths).
 */
export function disclosurePath(category: DisclosureCategory, name: string): string {
  return `/clearing/disclosures/${category}/${name}.pdf`;
}

export function latestDisclosurePath(category: DisclosureCategory): string {
  return disclosurePath(category, LATEST_NAME);
}

const path = (description: string) => ({ type: 'string', description }) as const;

/** One daily segregation statement. */
const dailyDisclosureSchema = {
  type: 'object',
  properties: {
    dailyDisclosureDay: path('The business day, `yyyy-MM-dd` (UTC).'),
    dailyDisclosurePath: path('The document’s URL path.'),
  },
  required: ['dailyDisclosureDay', 'dailyDisclosurePath'],
  additionalProperties: false,
} as const;
export type DailyDisclosure = FromSchema<typeof dailyDisclosureSchema>;

/** The daily statements of one month, newest day first. */
const dailyDisclosureMonthSchema = {
  type: 'object',
  properties: {
    month: path('`yyyy-MM` (UTC).'),
    days: { type: 'array', items: dailyDisclosureSchema },
  },
  required: ['month', 'days'],
  additionalProperties: false,
} as const;
export type DailyDisclosureMonth = FromSchema<typeof dailyDisclosureMonthSchema>;

/** One month-end document (segregation statement or net capital summary). */
const monthlyDisclosureSchema = {
  type: 'object',
  properties: {
    monthlyDisclosureMonth: path('`yyyy-MM` (UTC).'),
    monthlyDisclosurePath: path('The document’s URL path.'),
  },
  required: ['monthlyDisclosureMonth', 'monthlyDisclosurePath'],
  additionalProperties: false,
} as const;
export type MonthlyDisclosure = FromSchema<typeof monthlyDisclosureSchema>;

/** One year's certified annual financial statement. */
const yearlyDisclosureSchema = {
  type: 'object',
  properties: {
    yearlyDisclosureYear: path('`yyyy`.'),
    yearlyDisclosurePath: path('The document’s URL path.'),
  },
  required: ['yearlyDisclosureYear', 'yearlyDisclosurePath'],
  additionalProperties: false,
} as const;

/** The firm disclosure document in force (Rule 1.55(k)). */
const firmDisclosureSchema = {
  type: ['object', 'null'],
  properties: {
    firmDisclosureDate: path('Its effective date, `yyyy-MM-dd`.'),
    firmDisclosurePath: path('The document’s URL path.'),
    firmDisclosureLatestPath: path(
      'Always `/clearing/disclosures/firm-disclosure/latest.pdf`: the link the index page shows.',
    ),
  },
  required: ['firmDisclosureDate', 'firmDisclosurePath', 'firmDisclosureLatestPath'],
  additionalProperties: false,
} as const;

/**
 * `GET /clearing/api/web/disclosures` (public). Every list is newest first and holds what the
 * rules ask to be published: daily statements of the current 12 months (grouped by month),
 * the 12 latest month-ends, the latest audited year.
 */
export const disclosuresResponseSchema = {
  type: 'object',
  properties: {
    firmDisclosure: firmDisclosureSchema,
    dailySegregation: { type: 'array', items: dailyDisclosureMonthSchema },
    capitalSummary: { type: 'array', items: monthlyDisclosureSchema },
    monthlySegregation: { type: 'array', items: monthlyDisclosureSchema },
    auditedFinancial: { type: 'array', items: yearlyDisclosureSchema },
  },
  required: [
    'firmDisclosure',
    'dailySegregation',
    'capitalSummary',
    'monthlySegregation',
    'auditedFinancial',
  ],
  additionalProperties: false,
} as const;
export type DisclosuresResponse = FromSchema<typeof disclosuresResponseSchema>;

export const DISCLOSURES_API_PATH = '/clearing/api/web/disclosures';
