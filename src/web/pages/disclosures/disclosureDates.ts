import { format } from 'date-fns';
import type { DailyDisclosure, DailyDisclosureMonth } from '../../../shared/api/disclosures';

/**
 * Formats the UTC calendar date of an ISO 8601 date or timestamp with a date-fns pattern
 * (business §9: disclosure dates are UTC). date-fns formats local time, so it is handed a local
 * date carrying the UTC year, month and day; noon keeps it clear of daylight-saving gaps.
 */
export function formatUtcDate(iso: string, pattern: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return format(
    new Date(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), 12),
    pattern,
  );
}

interface DailyMonthGroup {
  /** `yyyy-MM` (UTC). */
  key: string;
  /** 'MMMM yyyy', e.g. 'March 2026'. */
  heading: string;
  days: DailyDisclosure[];
}

/**
 * Groups the daily statements by their UTC month, newest first. The server already sends them
 * grouped; regrouping from each day keeps a heading and its days in agreement whatever zone the
 * browser (or a server) is in.
 */
export function groupDailyByUtcMonth(months: DailyDisclosureMonth[]): DailyMonthGroup[] {
  const days = months
    .flatMap((month) => month.days)
    .map((day) => ({ day, time: new Date(day.dailyDisclosureDay).getTime() }))
    .filter(({ time }) => !Number.isNaN(time))
    .sort((a, b) => b.time - a.time);
  const groups: DailyMonthGroup[] = [];
  for (const { day } of days) {
    const key = formatUtcDate(day.dailyDisclosureDay, 'yyyy-MM');
    let group = groups.at(-1);
    if (group?.key !== key) {
      group = { key, heading: formatUtcDate(day.dailyDisclosureDay, 'MMMM yyyy'), days: [] };
      groups.push(group);
    }
    group.days.push(day);
  }
  return groups;
}
