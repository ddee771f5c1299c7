import {
  disclosurePath,
  latestDisclosurePath,
  type DailyDisclosureMonth,
  type DisclosureCategory,
  type DisclosuresResponse,
  type MonthlyDisclosure,
} from '../../shared/api/disclosures';
import { listPublishedPeriods } from '../db/disclosures';
import type { Queryable } from '../db/transaction';

/** Today's date in UTC, `yyyy-MM-dd`: disclosure periods are UTC calendar dates (§9). */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Builds the listing from published periods (each category's periods newest first). */
function toDisclosuresResponse(
  periods: Array<{ category: DisclosureCategory; period: string }>,
): DisclosuresResponse {
  const of = (category: DisclosureCategory) =>
    periods.filter((row) => row.category === category).map((row) => row.period);
  const monthly = (category: DisclosureCategory): MonthlyDisclosure[] =>
    of(category).map((month) => ({
      monthlyDisclosureMonth: month,
      monthlyDisclosurePath: disclosurePath(category, month),
    }));

  const dailySegregation: DailyDisclosureMonth[] = [];
  for (const day of of('daily-segregation')) {
    const month = day.slice(0, 7);
    let group = dailySegregation.at(-1);
    if (group?.month !== month) {
      group = { month, days: [] };
      dailySegregation.push(group);
    }
    group.days.push({
      dailyDisclosureDay: day,
      dailyDisclosurePath: disclosurePath('daily-segregation', day),
    });
  }

  const firm = of('firm-disclosure')[0];
  return {
    firmDisclosure: firm
      ? {
          firmDisclosureDate: firm,
          firmDisclosurePath: disclosurePath('firm-disclosure', firm),
          firmDisclosureLatestPath: latestDisclosurePath('firm-disclosure'),
        }
      : null,
    dailySegregation,
    capitalSummary: monthly('capital-summary'),
    monthlySegregation: monthly('monthly-segregation'),
    auditedFinancial: of('audited-financial').map((year) => ({
      yearlyDisclosureYear: year,
      yearlyDisclosurePath: disclosurePath('audited-financial', year),
    })),
  };
}

/** The public listing as of `now`. */
export async function listDisclosures(
  db: Queryable,
  now: Date = new Date(),
): Promise<DisclosuresResponse> {
  return toDisclosuresResponse(await listPublishedPeriods(db, utcToday(now)));
}
