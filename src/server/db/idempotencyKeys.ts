/**
 * Idempotency-Key rows (migration 150; plugins/idempotency.ts). A key lives 24 hours from its
 * first use; an answer still missing after `ABANDONED` means the instance that claimed it died,
 * and the key may be claimed again.
 */
import type { Queryable } from './transaction';

const LIVE = `interval '24 hours'`;
const ABANDONED = `interval '10 minutes'`;

/** A key's row as another request with it finds it. */
interface IdempotencyRow {
  route: string;
  fingerprint: string;
  /** Null while the first request is still running. */
  status_code: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
}

/**
 * Claims the owner's key for a request (the row inserted before the request runs, so a
 * concurrent duplicate finds it and does not run): null when claimed, else the live row another
 * request holds. An expired or abandoned row is taken over.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  claim: { owner: string; key: string; route: string; fingerprint: string },
): Promise<IdempotencyRow | null> {
  // Twice at most: a row cleaned up between the two statements is claimed the second time.
  for (let attempt = 0; ; attempt++) {
    const claimed = await db.query(
      `insert into idempotency_keys (owner, key, route, fingerprint) values ($1, $2, $3, $4)
       on conflict (owner, key) do update
         set route = excluded.route, fingerprint = excluded.fingerprint, created_at = now(),
             status_code = null, headers = null, body = null
       where idempotency_keys.created_at < now() - ${LIVE}
          or (idempotency_keys.status_code is null
              and idempotency_keys.created_at < now() - ${ABANDONED})
       returning 1`,
      [claim.owner, claim.key, claim.route, claim.fingerprint],
    );
    if (claimed.rowCount) return null;
    const held = await db.query<IdempotencyRow>(
      `select route, fingerprint, status_code, headers, body from idempotency_keys
        where owner = $1 and key = $2`,
      [claim.owner, claim.key],
    );
    if (held.rows[0] || attempt > 0) return held.rows[0] ?? null;
  }
}

/** Keeps the first answer of a claimed key. */
export async function storeIdempotentAnswer(
  db: Queryable,
  owner: string,
  key: string,
  answer: {
    fingerprint: string;
    statusCode: number;
    headers: Record<string, string>;
    body: Buffer;
  },
): Promise<void> {
  await db.query(
    `update idempotency_keys set fingerprint = $3, status_code = $4, headers = $5, body = $6
      where owner = $1 and key = $2 and status_code is null`,
    [owner, key, answer.fingerprint, answer.statusCode, answer.headers, answer.body],
  );
}

/** Lets a key go unanswered (the request failed on the server's side: a retry may run it). */
export async function releaseIdempotencyKey(db: Queryable, owner: string, key: string) {
  await db.query(
    'delete from idempotency_keys where owner = $1 and key = $2 and status_code is null',
    [owner, key],
  );
}

/** Deletes keys older than 24 hours; how many. */
export async function deleteExpiredIdempotencyKeys(db: Queryable): Promise<number> {
  const result = await db.query(`delete from idempotency_keys where created_at < now() - ${LIVE}`);
  return result.rowCount ?? 0;
}
