import type pg from 'pg';

/** Something that runs SQL: the pool, or a client inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

/** Runs `work` in one transaction: committed when it returns, rolled back when it throws. */
export async function withTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Holds the transaction-scoped advisory lock named `key` until the transaction ends: work of
 * the same key (one seed, one disclosure period) is serialised across instances.
 */
export async function lockForTransaction(db: pg.PoolClient, key: string): Promise<void> {
  await db.query('select pg_advisory_xact_lock(hashtext($1))', [key]);
}
