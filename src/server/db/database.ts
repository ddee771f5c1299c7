import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedServer } from './embeddedPostgres';
import { migrate } from './migrate';

/** The pool the routes use, and how to close it (and the embedded server, if any). */
export interface Database {
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * Connects to `databaseUrl`, or starts the embedded PostgreSQL in `dataDir` when there is none,
 * then applies pending migrations.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  log?: (message: string) => void;
}): Promise<Database> {
  let embedded: EmbeddedServer | undefined;
  let connectionString = options.databaseUrl;
  if (!connectionString) {
    embedded = await startEmbeddedPostgres(options.dataDir, options.log);
    connectionString = embedded.connectionString;
  }
  const pool = createPool(connectionString, options.log);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    await embedded?.stop();
    throw error;
  }
  return {
    pool,
    close: async () => {
      await endPool(pool);
      await embedded?.stop();
    },
  };
}

/** How long a request waits for a connection before it is answered 503 (the database is away). */
const CONNECT_TIMEOUT_MS = 3000;

/**
 * A pool whose clients' errors never crash the process: an idle client's error reaches the pool's
 * listener, and a checked-out client's (the server dying mid-query: "terminating connection due
 * to unexpected postmaster exit") its own, added once when the client connects. The query that
 * was running fails and its request is answered 503.
 */
export function createPool(connectionString: string, log?: (message: string) => void): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A dead server never answers: don't hold a request longer than this on one query.
    query_timeout: 60_000,
  });
  pool.on('error', (error) => log?.(`database pool error: ${error.message}`));
  pool.on('connect', (client) => {
    client.on('error', (error) => log?.(`database connection error: ${error.message}`));
  });
  return pool;
}

/** Ends the pool, but never waits long for a server that is gone (a quick SIGTERM). */
async function endPool(pool: pg.Pool, waitMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    pool.end().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    }),
  ]);
  clearTimeout(timer);
}
