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
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle client's error (the server restarting) must not crash the process.
  pool.on('error', (error) => options.log?.(`database pool error: ${error.message}`));
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
      await pool.end();
      await embedded?.stop();
    },
  };
}
