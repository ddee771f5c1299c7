/** The LEI registry's answers cached in PostgreSQL (`lei_records`), shared by every instance. */
import type { LeiRecord } from '../../shared/api/lei';
import type { Queryable } from './transaction';

const FOUND_TTL_HOURS = 24;
const NOT_FOUND_TTL_HOURS = 1;

/** The cached answer for an LEI when still fresh: the record, null (unknown LEI) or undefined. */
export async function cachedLeiRecord(
  db: Queryable,
  lei: string,
): Promise<LeiRecord | null | undefined> {
  const result = await db.query<{ record: LeiRecord | null }>(
    `select record from lei_records
      where lei = $1
        and fetched_at > now() - make_interval(hours =>
              case when record is null then $2::int else $3::int end)`,
    [lei, NOT_FOUND_TTL_HOURS, FOUND_TTL_HOURS],
  );
  const row = result.rows[0];
  return row ? row.record : undefined;
}

export async function cacheLeiRecord(
  db: Queryable,
  lei: string,
  record: LeiRecord | null,
): Promise<void> {
  await db.query(
    `insert into lei_records (lei, record, fetched_at) values ($1, $2, now())
     on conflict (lei) do update set record = excluded.record, fetched_at = excluded.fetched_at`,
    [lei, record === null ? null : JSON.stringify(record)],
  );
}
