import { hashToken, newToken } from './opaqueTokens';
import type { Queryable } from './transaction';

type TokenPurpose = 'verify-email' | 'reset-password' | 'invite' | 'change-email';

/** How long each kind of emailed link stays usable. */
const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  'verify-email': 24 * 60 * 60 * 1000,
  'reset-password': 60 * 60 * 1000,
  invite: 7 * 24 * 60 * 60 * 1000,
  'change-email': 60 * 60 * 1000,
};

interface ConsumedToken {
  userId: string;
  data: Record<string, unknown>;
}

/**
 * Issues a single-use token for a user and returns it; only its SHA-256 hash is stored. Earlier
 * unused tokens of the same purpose are retired, so only the newest link works.
 */
export async function issueAuthToken(
  db: Queryable,
  purpose: TokenPurpose,
  userId: string,
  data: Record<string, unknown> = {},
): Promise<string> {
  await db.query(
    `update auth_tokens set used_at = now()
      where user_id = $1 and purpose = $2 and used_at is null`,
    [userId, purpose],
  );
  const token = newToken();
  await db.query(
    `insert into auth_tokens (token_hash, purpose, user_id, data, expires_at)
     values ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')`,
    [hashToken(token), purpose, userId, data, TOKEN_TTL_MS[purpose]],
  );
  return token;
}

/**
 * Marks a live token used and returns whose it is; null when unknown, of another purpose, used
 * or expired. Call inside a transaction when later checks may still refuse the request, so a
 * refusal leaves the token usable.
 */
export async function consumeAuthToken(
  db: Queryable,
  purpose: TokenPurpose,
  token: string,
): Promise<ConsumedToken | null> {
  const result = await db.query<{ user_id: string; data: Record<string, unknown> }>(
    `update auth_tokens set used_at = now()
      where token_hash = $1 and purpose = $2 and used_at is null and expires_at > now()
      returning user_id, data`,
    [hashToken(token), purpose],
  );
  const row = result.rows[0];
  return row ? { userId: row.user_id, data: row.data } : null;
}

/**
 * Whose live token this is, without using it: null when unknown, of another purpose, used or
 * expired (the verify page asks before a password is typed, issue 38 §4).
 */
export async function liveAuthTokenUser(
  db: Queryable,
  purpose: TokenPurpose,
  token: string,
): Promise<string | null> {
  const result = await db.query<{ user_id: string }>(
    `select user_id from auth_tokens
      where token_hash = $1 and purpose = $2 and used_at is null and expires_at > now()`,
    [hashToken(token), purpose],
  );
  return result.rows[0]?.user_id ?? null;
}

/**
 * Retires every live emailed link of an account (issue 39 §2): those mailed to it (email change,
 * password reset, verification, an invitation to it) and the invitations it sent on its
 * organisation's behalf. Called when the owner takes the account back or changes how it is
 * reached (password reset or change, second factor on or off, email changed), so a link an
 * intruder asked for does not outlive the recovery. Returns how many were retired.
 */
export async function cancelAccountLinks(db: Queryable, userId: string): Promise<number> {
  const result = await db.query(
    `update auth_tokens set used_at = now()
      where used_at is null and expires_at > now()
        and (user_id = $1 or (purpose = 'invite' and data->>'invitedBy' = $1::text))`,
    [userId],
  );
  return result.rowCount ?? 0;
}
