import { hashToken, newToken } from './opaqueTokens';
import type { Queryable } from './transaction';

/** A stored passkey (WebAuthn credential). */
interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Buffer;
  counter: string;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

export async function listPasskeys(db: Queryable, userId: string): Promise<PasskeyRow[]> {
  const result = await db.query<PasskeyRow>(
    'select * from passkeys where user_id = $1 order by created_at',
    [userId],
  );
  return result.rows;
}

export async function insertPasskey(
  db: Queryable,
  passkey: {
    userId: string;
    credentialId: string;
    publicKey: Uint8Array;
    counter: number;
    transports: string[];
    name: string;
  },
): Promise<string> {
  const result = await db.query<{ id: string }>(
    `insert into passkeys (user_id, credential_id, public_key, counter, transports, name)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [
      passkey.userId,
      passkey.credentialId,
      Buffer.from(passkey.publicKey),
      passkey.counter,
      passkey.transports,
      passkey.name,
    ],
  );
  return result.rows[0]!.id;
}

/** The user's passkey with this credential id, or null (another user's never matches). */
export async function findPasskey(
  db: Queryable,
  userId: string,
  credentialId: string,
): Promise<PasskeyRow | null> {
  const result = await db.query<PasskeyRow>(
    'select * from passkeys where user_id = $1 and credential_id = $2',
    [userId, credentialId],
  );
  return result.rows[0] ?? null;
}

export async function recordPasskeyUse(db: Queryable, id: string, counter: number): Promise<void> {
  await db.query('update passkeys set counter = $2, last_used_at = now() where id = $1', [
    id,
    counter,
  ]);
}

/** Removes one of the user's passkeys; false when it is not theirs. */
export async function deletePasskey(db: Queryable, userId: string, id: string): Promise<boolean> {
  const result = await db.query('delete from passkeys where user_id = $1 and id = $2', [
    userId,
    id,
  ]);
  return result.rowCount === 1;
}

/** A passkey's creation, the sign-in's second step, a re-authentication on the profile page. */
type ChallengePurpose = 'register' | 'signin' | 'reauth';

/** How long a WebAuthn ceremony may take (the browser's own timeout is the same). */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/**
 * Stores a challenge and returns the handle that finds it again (only its hash is stored). A
 * user has one ceremony of each kind at a time: an earlier one's challenge is dropped.
 */
export async function storeChallenge(
  db: Queryable,
  userId: string,
  purpose: ChallengePurpose,
  challenge: string,
): Promise<string> {
  const handle = newToken();
  await db.query(
    `delete from webauthn_challenges
      where (user_id = $1 and purpose = $2) or expires_at < now()`,
    [userId, purpose],
  );
  await db.query(
    `insert into webauthn_challenges (id_hash, user_id, purpose, challenge, expires_at)
     values ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')`,
    [hashToken(handle), userId, purpose, challenge, CHALLENGE_TTL_MS],
  );
  return handle;
}

/** Takes (deletes and returns) a live challenge: each is answered at most once. */
export async function takeChallenge(
  db: Queryable,
  purpose: ChallengePurpose,
  where: { handle: string } | { userId: string },
): Promise<{ userId: string; challenge: string } | null> {
  const [column, value] =
    'handle' in where ? ['id_hash', hashToken(where.handle)] : ['user_id', where.userId];
  const result = await db.query<{ user_id: string; challenge: string; live: boolean }>(
    `delete from webauthn_challenges where ${column} = $1 and purpose = $2
     returning user_id, challenge, expires_at > now() as live`,
    [value, purpose],
  );
  const row = result.rows.find((candidate) => candidate.live);
  return row ? { userId: row.user_id, challenge: row.challenge } : null;
}
