/**
 * Telling "the database is away" (down, restarting, unreachable, connections cut) from any
 * other failure: the first is answered 503 with Retry-After, the second stays a 500.
 */
import type { Queryable } from './transaction';

/** SQLSTATE classes and codes meaning the server is gone or refusing work for now. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '53300', // too_many_connections
]);

/** Messages of the `pg` driver itself, which carry no code. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|terminating connection|Client has encountered a connection error|Client was closed|Query read timeout|the database system is (starting up|shutting down|in recovery mode)/i;

/** Seconds a client should wait before trying again while the database is away. */
export const RETRY_AFTER_SECONDS = 5;

export const DATABASE_UNAVAILABLE_MESSAGE =
  'The portal cannot reach its database at the moment. Nothing was lost; please try again in a few seconds.';

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) {
    return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  // AggregateError (a refused connection on both IPv4 and IPv6) carries its causes inside.
  const errors = (error as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.some(isDatabaseUnavailable);
}

/** Asks the database the smallest question: what readiness waits on. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query('select 1');
}
