import type { Queryable } from './transaction';

/**
 * The account's recovery codes (auth/recoveryCodes.ts), stored only as hashes: a new set replaces
 * the old whole, a code is spent by one conditional update (so two requests sending it together
 * cannot both use it).
 */

/** Replaces the account's codes with these hashes, inside the caller's transaction. */
export async function replaceRecoveryCodes(
  db: Queryable,
  userId: string,
  hashes: readonly string[],
): Promise<void> {
  await db.query('delete from recovery_codes where user_id = $1', [userId]);
  await db.query(
    `insert into recovery_codes (user_id, code_hash)
     select $1, hash from unnest($2::text[]) as hash`,
    [userId, hashes],
  );
}

/** The hashes of the account's codes not used yet. */
export async function unusedRecoveryCodeHashes(db: Queryable, userId: string): Promise<string[]> {
  const result = await db.query<{ code_hash: string }>(
    'select code_hash from recovery_codes where user_id = $1 and used_at is null',
    [userId],
  );
  return result.rows.map((row) => row.code_hash);
}

/**
 * Marks an unused code spent; answers how many unused codes remain after it, or null when the
 * code was spent already (by a request that got there first) or is not the account's.
 */
export async function spendRecoveryCode(
  db: Queryable,
  userId: string,
  codeHash: string,
): Promise<number | null> {
  const result = await db.query<{ remaining: string }>(
    `with spent as (
       update recovery_codes set used_at = now()
        where user_id = $1 and code_hash = $2 and used_at is null
        returning code_hash
     )
     select count(*) filter (where r.used_at is null and r.code_hash <> s.code_hash) as remaining
       from spent s cross join recovery_codes r
      where r.user_id = $1
      group by s.code_hash`,
    [userId, codeHash],
  );
  const row = result.rows[0];
  return row ? Number(row.remaining) : null;
}

/** How many of the account's codes are unused. */
export async function countUnusedRecoveryCodes(db: Queryable, userId: string): Promise<number> {
  const result = await db.query<{ count: string }>(
    'select count(*) as count from recovery_codes where user_id = $1 and used_at is null',
    [userId],
  );
  return Number(result.rows[0]!.count);
}

/**
 * Deletes the account's codes once it has no second factor left (no authenticator app, no
 * passkey), inside the transaction that removed the last one: codes stand in for a second factor,
 * and a set from before must not come back to life with the next one.
 */
export async function voidRecoveryCodesWithoutFactor(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `delete from recovery_codes
      where user_id = $1
        and not exists (select 1 from users where id = $1 and totp_enabled)
        and not exists (select 1 from passkeys where user_id = $1)`,
    [userId],
  );
}
