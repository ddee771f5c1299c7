import type pg from 'pg';
import type { ServerConfig } from '../config';
import { lockForTransaction, withTransaction } from '../db/transaction';
import { hasAnyDisclosure, insertDisclosure } from '../db/disclosures';
import { makeSampleDisclosurePdf } from '../disclosures/samplePdf';
import { sha256Hex, writeDisclosureFile } from '../disclosures/storage';
import type { DisclosureCategory } from '../../shared/api/disclosures';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const isoMonth = (year: number, monthIndex: number) =>
  isoDay(new Date(Date.UTC(year, monthIndex, 1))).slice(0, 7);

/**
 * The sample documents a year of publishing leaves behind, as of `now` (UTC dates): daily
 * segregation for every business day (Monday to Friday) of the last 12 months up to yesterday,
 * the 12 latest month-ends for monthly segregation and capital summary, last year's audited
 * financials and one firm disclosure.
 */
function sampleDisclosurePeriods(
  now: Date,
): Array<{ category: DisclosureCategory; period: string }> {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const day = now.getUTCDate();
  const periods: Array<{ category: DisclosureCategory; period: string }> = [];

  const yesterday = new Date(Date.UTC(year, month, day - 1));
  for (let date = yesterday; ; date = new Date(date.getTime() - 86_400_000)) {
    // The listing's window: after the same date a year ago.
    if (date.getTime() <= Date.UTC(year - 1, month, day)) break;
    const weekday = date.getUTCDay();
    if (weekday !== 0 && weekday !== 6) {
      periods.push({ category: 'daily-segregation', period: isoDay(date) });
    }
  }
  for (let back = 1; back <= 12; back += 1) {
    const period = isoMonth(year, month - back);
    periods.push({ category: 'monthly-segregation', period });
    periods.push({ category: 'capital-summary', period });
  }
  periods.push({ category: 'audited-financial', period: String(year - 1) });
  const firmDate = `${year}-01-02`;
  periods.push({
    category: 'firm-disclosure',
    period: firmDate < isoDay(now) ? firmDate : `${year - 1}-01-02`,
  });
  return periods;
}

/**
 * Publishes the sample disclosure documents into an empty disclosures table (the demo seed,
 * development only). Answers how many it published: 0 when documents already exist.
 */
export async function seedDisclosures(
  pool: pg.Pool,
  _config: Pick<ServerConfig, 'dataDir'>,
  now: Date = new Date(),
): Promise<number> {
  return await withTransaction(pool, async (client) => {
    // Two servers starting on one database: the second finds the first one's documents.
    await lockForTransaction(client, 'seed:disclosures');
    if (await hasAnyDisclosure(client)) return 0;
    const periods = sampleDisclosurePeriods(now);
    for (const { category, period } of periods) {
      const bytes = await makeSampleDisclosurePdf(category, period);
      // The bytes go into the database in this transaction: nothing to clean up on failure.
      const storageName = await writeDisclosureFile(client, bytes);
      await insertDisclosure(client, {
        category,
        period,
        storageName,
        size: bytes.byteLength,
        sha256: sha256Hex(bytes),
        publishedBy: 'seed',
      });
    }
    return periods.length;
  });
}
