import { hashToken, newToken } from './opaqueTokens';
import type { Queryable } from './transaction';

/** How long a browser stays known to an account after it was given its device cookie. */
export const DEVICE_COOKIE_TTL_MS = 90 * 24 * 60 * 60 * 1000;

/** The account whose device cookie `token` is, while it lasts; null otherwise. */
export async function deviceCookieUser(db: Queryable, token: string): Promise<string | null> {
  const found = await db.query<{ user_id: string }>({
    name: 'device-cookie-user',
    text: 'select user_id from device_cookies where token_hash = $1 and expires_at > now()',
    values: [hashToken(token)],
  });
  return found.rows[0]?.user_id ?? null;
}

/** A new device cookie for `userId` (its expired ones dropped on the way); returns the token. */
export async function issueDeviceCookie(db: Queryable, userId: string): Promise<string> {
  const token = newToken();
  await db.query(
    `with expired as (delete from device_cookies where user_id = $2 and expires_at <= now())
     insert into device_cookies (token_hash, user_id, expires_at)
     values ($1, $2, now() + $3 * interval '1 millisecond')`,
    [hashToken(token), userId, DEVICE_COOKIE_TTL_MS],
  );
  return token;
}

/** After a password reset: no browser is known to the account any more. */
export async function forgetDevices(db: Queryable, userId: string): Promise<void> {
  await db.query('delete from device_cookies where user_id = $1', [userId]);
}
