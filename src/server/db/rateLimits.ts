/**
 * Rate-limit counters in PostgreSQL, so a limit counts requests to every instance behind a load
 * balancer. A fixed window per key: the first hit opens it, later hits count until it ends.
 */
import type pg from 'pg';
// enforceLimit's 429 belongs above db/; it moves up with its callers (routes/auth.ts is being
// changed elsewhere at the time of writing).
// eslint-disable-next-line import-x/no-restricted-paths
import { ClientError } from '../errors';
import type { Queryable } from './transaction';

interface Hit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  ttlMs: number;
}

/**
 * A key counted this often in its window is over every limit the portal sets (each limit's
 * `max` is below it: `checkLimitMax`), and stays over until the window ends. From then on this
 * process answers its hits without PostgreSQL, so an attacker hammering one address costs the
 * database one write per instance and window beyond this, not one per request.
 */
export const SATURATED_AT = 200;

const saturated = new Map<string, { count: number; endsAt: number }>();

/** Refuses at start a limit whose `max` the saturation shortcut could not honour. */
export function checkLimitMax(max: number): number {
  if (!Number.isInteger(max) || max < 1 || max >= SATURATED_AT) {
    throw new Error(`a rate limit's max must be an integer from 1 to ${SATURATED_AT - 1}`);
  }
  return max;
}

/** Counts one hit on `key` and answers the window's count. */
export async function countHit(db: Queryable, key: string, windowMs: number): Promise<Hit> {
  const now = Date.now();
  const known = saturated.get(key);
  if (known && now < known.endsAt) {
    known.count += 1;
    return { count: known.count, ttlMs: known.endsAt - now };
  }
  if (known) saturated.delete(key);
  const result = await db.query<{ count: number; ttl_ms: number }>(
    `insert into rate_limit_counters as c (key, count, window_ends_at)
     values ($1, 1, now() + $2 * interval '1 millisecond')
     on conflict (key) do update set
       count = case when c.window_ends_at <= now() then 1 else c.count + 1 end,
       window_ends_at = case when c.window_ends_at <= now()
                             then now() + $2 * interval '1 millisecond' else c.window_ends_at end
     returning count, greatest(0, ceil(extract(epoch from window_ends_at - now()) * 1000))::int as ttl_ms`,
    [key, windowMs],
  );
  const row = result.rows[0]!;
  if (row.count >= SATURATED_AT) {
    if (saturated.size > 10_000) {
      for (const [k, v] of saturated) if (v.endsAt <= now) saturated.delete(k);
    }
    saturated.set(key, { count: row.count, endsAt: now + row.ttl_ms });
  }
  return { count: row.count, ttlMs: row.ttl_ms };
}

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

type StoreCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit over `countHit`, so the routes' `config.rateLimit` limits hold
 * across instances. Each route gets its own key space (method and URL), as with the plugin's
 * own stores.
 */
export function postgresRateLimitStore(pool: pg.Pool) {
  class PostgresRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly prefix = 'route:',
    ) {}

    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      countHit(pool, this.prefix + key, timeWindow).then(
        (hit) => callback(null, { current: hit.count, ttl: hit.ttlMs }),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: object): PostgresRateLimitStore {
      const route =
        (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo ?? {};
      return new PostgresRateLimitStore(
        undefined,
        `route:${route.method ?? ''}${route.url ?? ''}|`,
      );
    }
  }
  return PostgresRateLimitStore;
}
