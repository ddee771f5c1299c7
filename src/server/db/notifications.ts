/**
 * PostgreSQL LISTEN/NOTIFY between the instances of the portal on one database: one dedicated
 * connection per instance listens; anything (a trigger, another instance) notifies. The
 * connection is re-opened after the database comes back; listeners are told (`onReconnect`) so
 * caches drop whatever they may have missed meanwhile.
 */
import type pg from 'pg';
import type { Queryable } from './transaction';

type Handler = (payload: string) => void;

const RECONNECT_DELAY_MS = 500;

export class DatabaseListener {
  private client: pg.PoolClient | undefined;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private closed = false;
  private connecting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;

  /** Holds one of the pool's connections for as long as it lives. */
  constructor(
    private readonly pool: pg.Pool,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /** Connects and listens; resolves once listening (or once the first attempt failed). */
  start(): Promise<void> {
    this.connecting ??= this.connect(false).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** Calls `handler` with each notification's payload on `channel` (a plain identifier). */
  async listen(channel: string, handler: Handler): Promise<void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.client?.query(`listen ${channel}`).catch(() => {});
    }
    set.add(handler);
  }

  /** Called after the connection was lost and is back: notifications may have been missed. */
  onReconnect(handler: () => void): void {
    this.reconnectHandlers.add(handler);
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    if (client) {
      await client.query('unlisten *').catch(() => {});
      client.removeAllListeners('notification');
      client.release();
    }
  }

  private async connect(reconnect: boolean): Promise<void> {
    if (this.closed) return;
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch {
      this.scheduleReconnect();
      return;
    }
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) {
        try {
          handler(message.payload ?? '');
        } catch (error) {
          this.log(`notification handler failed: ${(error as Error).message}`);
        }
      }
    });
    try {
      for (const channel of this.handlers.keys()) await client.query(`listen ${channel}`);
      if (this.closed) {
        client.release();
        return;
      }
      this.client = client;
      if (reconnect) {
        this.log('database notifications reconnected');
        for (const handler of this.reconnectHandlers) handler();
      }
    } catch (error) {
      client.removeAllListeners('end');
      client.release(error as Error);
      this.scheduleReconnect();
    }
  }

  private lost(client: pg.PoolClient, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('notification');
    // Destroys the broken connection instead of returning it to the pool.
    client.release(error ?? new Error('connection ended'));
    if (this.closed) return;
    this.log(`database notifications lost${error ? `: ${error.message}` : ''}`);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect(true);
    }, RECONNECT_DELAY_MS);
    this.retryTimer.unref();
  }
}

/** Notifies every instance listening on `channel` (after the sender's commit, if in one). */
export async function notify(db: Queryable, channel: string, payload: string): Promise<void> {
  await db.query('select pg_notify($1, $2)', [channel, payload]);
}

/**
 * Takes the session-level advisory lock `key` on this connection if no other holds it: held
 * until released or the connection ends, so one instance at a time leads.
 */
export async function tryHoldLock(client: pg.PoolClient, key: number): Promise<boolean> {
  const result = await client.query<{ locked: boolean }>(
    'select pg_try_advisory_lock($1) as locked',
    [key],
  );
  return Boolean(result.rows[0]?.locked);
}

export async function releaseLock(client: pg.PoolClient, key: number): Promise<void> {
  await client.query('select pg_advisory_unlock($1)', [key]);
}
