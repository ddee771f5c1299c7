import type { Queryable } from './transaction';
import { DISCLOSURE_PERIOD_KIND, type DisclosureCategory } from '../../shared/api/disclosures';

/** A current (not superseded) disclosure document. */
export interface DisclosureRow {
  category: DisclosureCategory;
  /** The period as named in URLs: `yyyy-MM-dd`, `yyyy-MM` or `yyyy` by category. */
  period: string;
  storageName: string;
  size: number;
  sha256: string;
  publishedAt: Date;
  publishedBy: string;
}

/** The `date` column value for a period name (the period's first day). */
function periodStart(category: DisclosureCategory, period: string): string {
  switch (DISCLOSURE_PERIOD_KIND[category]) {
    case 'day':
      return period;
    case 'month':
      return `${period}-01`;
    case 'year':
      return `${period}-01-01`;
  }
}

// Dates leave PostgreSQL as text: pg would turn a `date` into local midnight otherwise.
const PERIOD_NAME = `case
    when category in ('capital-summary', 'monthly-segregation') then to_char(period, 'YYYY-MM')
    when category = 'audited-financial' then to_char(period, 'YYYY')
    else to_char(period, 'YYYY-MM-DD')
  end`;
const COLUMNS = `category, ${PERIOD_NAME} as period, storage_name as "storageName", size,
  sha256, published_at as "publishedAt", published_by as "publishedBy"`;

/**
 * Records a published document as the current one of its period, superseding any earlier one.
 * Run inside a transaction.
 */
export async function insertDisclosure(
  db: Queryable,
  document: Omit<DisclosureRow, 'publishedAt'>,
): Promise<DisclosureRow> {
  const start = periodStart(document.category, document.period);
  await db.query(
    `update disclosure_documents set superseded_at = now()
      where category = $1 and period = $2 and superseded_at is null`,
    [document.category, start],
  );
  const { rows } = await db.query<DisclosureRow>(
    `insert into disclosure_documents (category, period, storage_name, size, sha256, published_by)
     values ($1, $2, $3, $4, $5, $6) returning ${COLUMNS}`,
    [
      document.category,
      start,
      document.storageName,
      document.size,
      document.sha256,
      document.publishedBy,
    ],
  );
  return rows[0]!;
}

/** The current document of one period, or null. */
export async function findDisclosure(
  db: Queryable,
  category: DisclosureCategory,
  period: string,
): Promise<DisclosureRow | null> {
  const { rows } = await db.query<DisclosureRow>(
    `select ${COLUMNS} from disclosure_documents
      where category = $1 and period = $2 and superseded_at is null`,
    [category, periodStart(category, period)],
  );
  return rows[0] ?? null;
}

/** The newest current document of a category (by period), or null. */
export async function findLatestDisclosure(
  db: Queryable,
  category: DisclosureCategory,
): Promise<DisclosureRow | null> {
  const { rows } = await db.query<DisclosureRow>(
    `select ${COLUMNS} from disclosure_documents
      where category = $1 and superseded_at is null
      order by period desc limit 1`,
    [category],
  );
  return rows[0] ?? null;
}

/**
 * The published periods of every category that the listing shows, newest first: daily
 * statements after `today` less 12 months, the 12 latest month-ends of each monthly category,
 * the latest audited year and the firm disclosure in force.
 */
export async function listPublishedPeriods(
  db: Queryable,
  today: string,
): Promise<Array<{ category: DisclosureCategory; period: string }>> {
  const { rows } = await db.query<{ category: DisclosureCategory; period: string }>(
    `select category, period from (
        select category, ${PERIOD_NAME} as period, period as start,
               row_number() over (partition by category order by period desc) as rank
          from disclosure_documents
         where superseded_at is null
      ) current
      where (category = 'daily-segregation' and start > $1::date - interval '12 months')
         or (category in ('capital-summary', 'monthly-segregation') and rank <= 12)
         or (category in ('audited-financial', 'firm-disclosure') and rank = 1)
      order by category, start desc`,
    [today],
  );
  return rows;
}

export async function hasAnyDisclosure(db: Queryable): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from disclosure_documents limit 1');
  return Boolean(rowCount);
}

/** Whether a period already has a current document (a publication then replaces it). */
export async function hasCurrentDisclosure(
  db: Queryable,
  category: DisclosureCategory,
  period: string,
): Promise<boolean> {
  const current = await db.query(
    `select 1 from disclosure_documents
      where category = $1 and superseded_at is null and period = $2::date`,
    [category, periodStart(category, period)],
  );
  return Boolean(current.rowCount);
}
