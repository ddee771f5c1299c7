/**
 * Consecutive wrong passwords per account (or per address with no account), shared by every
 * instance: the count behind auth/passwordFailures.ts. Migration 130 describes the table.
 */
import type { Queryable } from './transaction';

/** The count's subject for an account: counted the same whatever email or address it is tried by. */
export const accountSubject = (userId: string): string => `user:${userId}`;

/** The count's subject for an email that names no account: its keyed digest, never the address. */
export const addressSubject = (emailDigest: string): string => `email:${emailDigest}`;

/**
 * Counts one more attempt as a failure with the wait it brings (`waitSeconds[n - 1]` after the
 * n-th, the last for every later one), unless `capAt` is reached or, for a browser not exempt from
 * it, a wait runs: the count then, or null when refused. Atomic, so attempts sent together each
 * take their own place. A failure that brings no wait leaves no end of a wait (null), for the
 * reason claimSecondFactorAttempt gives (db/users.ts): a concurrent attempt must not read it as one.
 */
export async function claimPasswordAttempt(
  db: Queryable,
  subject: string,
  waitSeconds: readonly number[],
  capAt: number,
  exemptFromWait: boolean,
): Promise<number | null> {
  const claimed = await db.query<{ failures: number }>(
    `insert into password_failures as f (subject, failures, blocked_until)
     values ($1, 1, now() + nullif(($2::int[])[1], 0) * interval '1 second')
     on conflict (subject) do update set
       failures = f.failures + 1,
       blocked_until = greatest(f.blocked_until, now() + nullif(($2::int[])[least(f.failures + 1,
         cardinality($2::int[]))], 0) * interval '1 second'),
       updated_at = now()
     where f.failures < $3 and ($4 or f.blocked_until is null or f.blocked_until <= now())
     returning failures`,
    [subject, waitSeconds, capAt, exemptFromWait],
  );
  return claimed.rows[0]?.failures ?? null;
}

/** The subject's failures and the end of its wait; null when it has none counted. */
export async function findPasswordFailures(
  db: Queryable,
  subject: string,
): Promise<{ failures: number; blockedUntil: Date | null } | null> {
  const result = await db.query<{ failures: number; blocked_until: Date | null }>(
    'select failures, blocked_until from password_failures where subject = $1',
    [subject],
  );
  const row = result.rows[0];
  return row ? { failures: row.failures, blockedUntil: row.blocked_until } : null;
}

/** Clears the subject's count (its right password was given). */
export async function clearPasswordFailures(db: Queryable, subject: string): Promise<void> {
  await db.query('delete from password_failures where subject = $1', [subject]);
}
