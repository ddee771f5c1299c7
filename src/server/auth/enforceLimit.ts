/**
 * A rate limit enforced on a route's own key (an address, an account): counted in PostgreSQL by
 * `countHit` (db/rateLimits.ts), so it holds across instances, and refused here with 429 and
 * Retry-After beyond its `max`.
 */
import { checkLimitMax, countHit } from '../db/rateLimits';
import type { Queryable } from '../db/transaction';
import { ClientError } from '../errors';

/**
 * Limits this process saw refused, by `max` and key, with the end of their window. Within a window
 * a count only grows, so a key once over a limit stays over it until the window ends: its later
 * hits are refused from here, with no counter write. An attacker's first second at one address
 * cost a write per request until `SATURATED_AT` (200), each waiting for the same row's lock and
 * holding a pooled connection that a real user's sign-in then waited for; now it costs `max + 1`.
 */
const refused = new Map<string, number>();

/** Counts a hit and refuses with 429 (and Retry-After) beyond `max` in the window. */
export async function enforceLimit(
  db: Queryable,
  limit: { key: string; max: number; windowMs: number; message: string },
): Promise<void> {
  checkLimitMax(limit.max);
  const refusedKey = `${limit.max}\u0000${limit.key}`;
  const now = Date.now();
  const endsAt = refused.get(refusedKey);
  if (endsAt !== undefined) {
    if (now < endsAt) throw tooMany(limit.message, endsAt - now);
    refused.delete(refusedKey);
  }
  const hit = await countHit(db, limit.key, limit.windowMs);
  if (hit.count > limit.max) {
    if (refused.size > 10_000) {
      for (const [k, end] of refused) if (end <= now) refused.delete(k);
    }
    refused.set(refusedKey, Date.now() + hit.ttlMs);
    throw tooMany(limit.message, hit.ttlMs);
  }
}

const tooMany = (message: string, ttlMs: number) =>
  new ClientError(429, message, undefined, Math.max(1, Math.ceil(ttlMs / 1000)));
