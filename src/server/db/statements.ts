import type { Statement } from '../../shared/api/statement';
import { isUuid } from '../auth/apiSchemas';
import { LIVE_SESSION_SQL, STALE_SESSION_SQL } from './sessions';
import type { Queryable } from './transaction';

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
  return toStored(result.rows[0]!);
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

/** What the statement route needs to decide who may read, read in one round trip. */
interface StatementAccess {
  /** The signed-in user, or null when the session is unknown, expired or idle too long. */
  userId: string | null;
  /** The session's idle timer is due a refresh. */
  sessionStale: boolean;
  isStaff: boolean;
  approved: boolean;
  callerOrganizationId: string | null;
  /** The organisation asked for (by id or clearing id), if it exists. */
  organizationId: string | null;
}

/**
 * The caller's session and user and the organisation asked for in one query (the statement GET
 * is the portal's busiest signed-in read); the statement itself comes from the cache
 * (statementCache.ts). The session counts only when live by the same condition as every other
 * request's (LIVE_SESSION_SQL). A named prepared statement, so PostgreSQL plans it once per
 * connection.
 */
export async function readStatementAccess(
  db: Queryable,
  sessionIdHash: string,
  idOrClearingId: string,
): Promise<StatementAccess> {
  const byId = isUuid(idOrClearingId);
  const result = await db.query<{
    user_id: string | null;
    stale: boolean | null;
    is_staff: boolean | null;
    approved: boolean | null;
    caller_org: string | null;
    org_id: string | null;
  }>({
    name: byId ? 'statement-access-by-id' : 'statement-access-by-clearing-id',
    text: `select u.id as user_id, ${STALE_SESSION_SQL} as stale, u.is_staff,
                  coalesce((u.details->>'approved')::boolean, false) as approved,
                  u.organization_id as caller_org, o.id as org_id
             from (select 1) one
             left join sessions s on s.id_hash = $1 and ${LIVE_SESSION_SQL}
             left join users u on u.id = s.user_id
             left join organizations o on ${
               byId ? 'o.id = $2::uuid' : 'upper(o.clearing_org_id) = upper($2)'
             }`,
    values: [sessionIdHash, idOrClearingId],
  });
  const row = result.rows[0]!;
  return {
    userId: row.user_id,
    sessionStale: row.stale === true,
    isStaff: row.is_staff === true,
    approved: row.approved === true,
    callerOrganizationId: row.caller_org,
    organizationId: row.org_id,
  };
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
