import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type Database } from '../../server/db/database';

/** The embedded server of a running portal, read from PostgreSQL's own `postmaster.pid`. */
export function runningEmbeddedServer(dataDir: string): { pid: number; port: number } | null {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  let lines: string[];
  try {
    lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  } catch {
    return null;
  }
  // Line 1 is the postmaster's pid, line 4 its port (PostgreSQL's documented layout).
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || pid <= 0 || port <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive but another user's (the `postgres` user when the portal runs as root).
    if ((error as { code?: string }).code !== 'EPERM') return null;
  }
  return { pid, port };
}

/**
 * Opens the portal's database the way the server does: DATABASE_URL when set, otherwise the
 * embedded PostgreSQL in DATA_DIR. An embedded server cannot be started twice on one folder, so
 * when the portal is running its server is reached on the port it listens on instead.
 */
export async function openPortalDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  log: (message: string) => void;
}): Promise<Database> {
  if (options.databaseUrl) {
    return openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  }
  const running = runningEmbeddedServer(options.dataDir);
  if (running) {
    const secretFile = path.join(options.dataDir, 'postgres.secret');
    let password: string;
    try {
      password = fs.readFileSync(secretFile, 'utf8').trim();
    } catch {
      throw new Error(
        `The portal's embedded database in ${options.dataDir} is in use (PostgreSQL pid ${running.pid}) ` +
          `and its password file is unreadable. Stop the portal, or run this command as the user running it.`,
      );
    }
    options.log(`The portal is running: using its embedded database (127.0.0.1:${running.port}).`);
    return openDatabase({
      databaseUrl: `postgres://portal:${encodeURIComponent(password)}@127.0.0.1:${running.port}/portal`,
      dataDir: options.dataDir,
    });
  }
  return openDatabase({ dataDir: options.dataDir });
}
