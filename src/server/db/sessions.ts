import type pg from 'pg';
import { hashToken, newToken } from './opaqueTokens';
import type { Queryable } from './transaction';

/** Sessions end after this long without a request (OWASP ASVS 7.3.1) … */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** … and at the latest this long after sign-in (ASVS 7.3.2). */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/** The longest user agent kept with a session (enough to name the browser and system). */
const USER_AGENT_MAX = 512;

/**
 * Creates a session and returns the cookie value; only its hash is stored, with the browser's
 * user agent and address so the account's owner can recognise it among their active sessions.
 */
export async function createSession(
  pool: pg.Pool,
  userId: string,
  client: { userAgent?: string | undefined; ip?: string | undefined } = {},
): Promise<string> {
  const token = newToken();
  await pool.query(
    `insert into sessions (id_hash, user_id, expires_at, user_agent, ip)
     values ($1, $2, now() + $3 * interval '1 millisecond', $4, $5)`,
    [
      hashToken(token),
      userId,
      SESSION_ABSOLUTE_MS,
      client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      client.ip ?? null,
    ],
  );
  return token;
}

/**
 * How stale the idle timer may get before a request refreshes it. Refreshing on every request
 * made every signed-in request wait for a commit, and one user's concurrent requests queue on one
 * row; once a minute keeps the idle timeout honest to within a minute.
 */
export const SESSION_TOUCH_MS = 60 * 1000;

/**
 * The SQL condition of a live session row `s`: not past its absolute end, not idle too long.
 * Built from constants only; every query that accepts a session uses it.
 */
const LIVE_SESSION_SQL = `s.expires_at > now()
  and s.last_seen_at > now() - interval '${SESSION_IDLE_MS} milliseconds'`;

/** The SQL of "this live session's idle timer is due a refresh" (see SESSION_TOUCH_MS). */
const STALE_SESSION_SQL = `s.last_seen_at < now() - interval '${SESSION_TOUCH_MS} milliseconds'`;

/** Refreshes a session's idle timer (at most once a minute: see SESSION_TOUCH_MS). */
export async function touchSession(pool: Queryable, idHash: string): Promise<void> {
  await pool.query('update sessions set last_seen_at = now() where id_hash = $1', [idHash]);
}

/** The user id of a live session, touching its idle timer; null when unknown or expired. */
export async function findSessionUser(pool: pg.Pool, token: string): Promise<string | null> {
  const idHash = hashToken(token);
  // Named: every signed-in request runs it, so PostgreSQL plans it once per connection.
  const result = await pool.query<{ user_id: string; stale: boolean }>({
    name: 'session-user',
    text: `select s.user_id, ${STALE_SESSION_SQL} as stale
             from sessions s where s.id_hash = $1 and ${LIVE_SESSION_SQL}`,
    values: [idHash],
  });
  const row = result.rows[0];
  if (!row) return null;
  if (row.stale) await touchSession(pool, idHash);
  return row.user_id;
}

/** A live session as the statement GET decides on it (auth/liveSessions.ts keeps them). */
interface LiveSessionRow {
  userId: string;
  isStaff: boolean;
  approved: boolean;
  organizationId: string | null;
  clearingOrgId: string | null;
  /** Until the absolute end, from the database's clock. */
  expiresInMs: number;
  /** Since the idle timer was last refreshed, from the database's clock. */
  idleMs: number;
  /** The idle timer is due a refresh (SESSION_TOUCH_MS). */
  stale: boolean;
}

/**
 * A live session with what its user may read: staff or not, approved or not, their organisation
 * and its clearing id; null when unknown, expired or idle too long. Durations rather than times,
 * so an instance's clock need not agree with the database's.
 */
export async function readLiveSession(
  db: Queryable,
  idHash: string,
): Promise<LiveSessionRow | null> {
  const result = await db.query<{
    user_id: string;
    is_staff: boolean;
    approved: boolean;
    organization_id: string | null;
    clearing_org_id: string | null;
    expires_in_ms: number;
    idle_ms: number;
    stale: boolean;
  }>({
    name: 'live-session',
    text: `select u.id as user_id, u.is_staff,
                  coalesce((u.details->>'approved')::boolean, false) as approved,
                  u.organization_id, o.clearing_org_id,
                  (extract(epoch from s.expires_at - now()) * 1000)::float8 as expires_in_ms,
                  (extract(epoch from now() - s.last_seen_at) * 1000)::float8 as idle_ms,
                  ${STALE_SESSION_SQL} as stale
             from sessions s
             join users u on u.id = s.user_id
             left join organizations o on o.id = u.organization_id
            where s.id_hash = $1 and ${LIVE_SESSION_SQL}`,
    values: [idHash],
  });
  const row = result.rows[0];
  if (!row) return null;
  return {
    userId: row.user_id,
    isStaff: row.is_staff === true,
    approved: row.approved === true,
    organizationId: row.organization_id,
    clearingOrgId: row.clearing_org_id,
    expiresInMs: row.expires_in_ms,
    idleMs: row.idle_ms,
    stale: row.stale === true,
  };
}

export async function deleteSession(pool: pg.Pool, token: string): Promise<void> {
  await pool.query('delete from sessions where id_hash = $1', [hashToken(token)]);
}

/** A live session of a user, as the profile page lists it. */
interface SessionRow {
  public_id: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  last_seen_at: Date;
  current: boolean;
}

/** A user's live sessions, the one holding `currentIdHash` marked, most recently seen first. */
export async function listLiveSessions(
  db: Queryable,
  userId: string,
  currentIdHash: string | null,
): Promise<SessionRow[]> {
  const result = await db.query<SessionRow>(
    `select s.public_id, s.user_agent, s.ip, s.created_at, s.last_seen_at,
            s.id_hash = $2 as current
       from sessions s where s.user_id = $1 and ${LIVE_SESSION_SQL}
      order by (s.id_hash = $2) desc, s.last_seen_at desc`,
    [userId, currentIdHash ?? ''],
  );
  return result.rows;
}

/** Ends one session of a user by its public id; false when it is not theirs (or gone). */
export async function endSessionById(
  db: Queryable,
  userId: string,
  publicId: string,
): Promise<boolean> {
  const result = await db.query('delete from sessions where user_id = $1 and public_id = $2', [
    userId,
    publicId,
  ]);
  return result.rowCount === 1;
}

/** Ends every session of a user but the one holding `keepIdHash`; answers how many ended. */
export async function endOtherSessions(
  db: Queryable,
  userId: string,
  keepIdHash: string | null,
): Promise<number> {
  const result = await db.query('delete from sessions where user_id = $1 and id_hash <> $2', [
    userId,
    keepIdHash ?? '',
  ]);
  return result.rowCount ?? 0;
}

/**
 * Whether the session of `idHash` is live, without touching its idle timer: an open market
 * stream is not user activity and must not keep a session alive.
 */
export async function isSessionLive(db: Queryable, idHash: string): Promise<boolean> {
  const result = await db.query(
    `select 1 from sessions
      where id_hash = $1 and expires_at > now()
        and last_seen_at > now() - $2 * interval '1 millisecond'`,
    [idHash, SESSION_IDLE_MS],
  );
  return (result.rowCount ?? 0) > 0;
}
