import type { Statement } from '../../shared/api/statement';
import { isUuid } from '../../shared/api/http';
import type { Queryable } from './transaction';
import { queueStatementEvent } from './webhooks';

export interface StoredStatement {
  organizationId: string;
  statement: Statement;
  /** `yyyy-MM-dd`. */
  asOf: string;
  loadedAt: string;
  loadedBy: string | null;
}

interface StatementRow {
  organization_id: string;
  statement: Statement;
  as_of: string;
  loaded_at: Date;
  loaded_by: string | null;
}

const toStored = (row: StatementRow): StoredStatement => ({
  organizationId: row.organization_id,
  statement: row.statement,
  asOf: row.as_of,
  loadedAt: row.loaded_at.toISOString(),
  loadedBy: row.loaded_by,
});

/** The organisation's newest statement (latest business day, then latest load), or null. */
export async function latestStatement(
  db: Queryable,
  organizationId: string,
): Promise<StoredStatement | null> {
  const result = await db.query<StatementRow>(
    `select organization_id, statement, to_char(as_of, 'YYYY-MM-DD') as as_of, loaded_at, loaded_by
       from statements where organization_id = $1
      order by as_of desc, loaded_at desc limit 1`,
    [organizationId],
  );
  const row = result.rows[0];
  return row ? toStored(row) : null;
}

/** Stores a (validated) statement; loading the same business day again replaces it. */
export async function saveStatement(
  db: Queryable,
  entry: { organizationId: string; statement: Statement; asOf: string; loadedBy: string | null },
): Promise<StoredStatement> {
  const result = await db.query<StatementRow>(
    `insert into statements (organization_id, statement, as_of, loaded_by)
     values ($1, $2, $3, $4)
     on conflict (organization_id, as_of)
       do update set statement = excluded.statement, loaded_at = now(), loaded_by = excluded.loaded_by
     returning organization_id, statement, to_char(as_of, 'YYYY-MM-DD') as as_of, loaded_at, loaded_by`,
    [entry.organizationId, JSON.stringify(entry.statement), entry.asOf, entry.loadedBy],
  );
  const stored = toStored(result.rows[0]!);
  // Told to the organisation's webhook endpoints in the same transaction (issue 40 §5).
  await queueStatementEvent(db, {
    organizationId: stored.organizationId,
    asOf: stored.asOf,
    loadedAt: stored.loadedAt,
  });
  return stored;
}

/** An organisation by its id or its clearing id (`NCF-100001`); null when there is none. */
export async function findOrganization(
  db: Queryable,
  idOrClearingId: string,
): Promise<{ id: string; name: string; clearingOrgId: string } | null> {
  const byId = isUuid(idOrClearingId);
  const result = await db.query<{ id: string; name: string; clearing_org_id: string }>(
    `select id, name, clearing_org_id from organizations
      where ${byId ? 'id = $1::uuid' : 'upper(clearing_org_id) = upper($1)'}`,
    [idOrClearingId],
  );
  const row = result.rows[0];
  return row ? { id: row.id, name: row.name, clearingOrgId: row.clearing_org_id } : null;
}

/**
 * The organisation's newest statement with its `asOf`, as JSON text straight from PostgreSQL
 * (validated against the statement schema when it was loaded), or null: served as it is, never
 * parsed and serialised again.
 */
export async function latestStatementJson(
  db: Queryable,
  organizationId: string,
): Promise<string | null> {
  const result = await db.query<{ statement_json: string }>(
    `select (statement || jsonb_build_object('asOf', to_char(as_of, 'YYYY-MM-DD')))::text
              as statement_json
       from statements where organization_id = $1
      order by as_of desc, loaded_at desc limit 1`,
    [organizationId],
  );
  return result.rows[0]?.statement_json ?? null;
}
