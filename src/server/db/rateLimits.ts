/**
 * Rate-limit counters in PostgreSQL, so a limit counts requests to every instance behind a load
 * balancer. A fixed window per key: the first hit opens it, later hits count until it ends.
 */
import type pg from 'pg';
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
