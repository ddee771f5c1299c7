/**
 * The cleanup of old webhook deliveries (issue 40 §5): deliveries delivered or given up more than
 * `WEBHOOK_RETENTION_DAYS` ago (default 30) are deleted with their attempts, then the events no
 * delivery names any more. Every serving instance runs it now and then; a transaction-scoped
 * advisory lock lets one do it at a time (another finds it held and skips its turn), and it goes
 * in batches, each its own short transaction, so a large backlog never holds locks for long.
 * A pending delivery, and the event it names, is never deleted (db/webhooks.ts).
 */
import type pg from 'pg';
import { deleteOldDeliveries } from '../db/webhooks';
import { withTransaction } from '../db/transaction';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per transaction. */
const BATCH = 1_000;

/**
 * Deletes what is older than the retention at `now`; what it deleted, or null when another
 * instance held the cleanup's lock.
 */
export async function cleanUpDeliveries(
  pool: pg.Pool,
  retentionDays: number,
  now: Date = new Date(),
): Promise<{ deliveries: number; events: number } | null> {
  const before = new Date(now.getTime() - retentionDays * DAY_MS);
  const total = { deliveries: 0, events: 0 };
  for (;;) {
    const deleted = await withTransaction(pool, (db) => deleteOldDeliveries(db, before, BATCH));
    if (!deleted) return total.deliveries + total.events > 0 ? total : null;
    total.deliveries += deleted.deliveries;
    total.events += deleted.events;
    if (deleted.deliveries < BATCH && deleted.events < BATCH) return total;
  }
}
