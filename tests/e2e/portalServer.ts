/**
 * The portal the end-to-end tests drive, one per Playwright worker. globalSetup builds the app
 * once per run into {@link E2E_DIR}; each worker then starts that build (`node main.js`, as
 * `npm start` does after building) on a free port with a data folder and embedded PostgreSQL of
 * its own, so two workers never share a database, a rate limit or an outbox. globalTeardown
 * ends whatever a worker that died abruptly left running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../bench/lib/util';
import { DEV_OUTBOX_FILE } from '../../src/server/mail/mailer';

/** Everything one run writes: the build and each worker's data folder (gitignored, wiped per run). */
const E2E_DIR = '.e2e-data';
const WEB_DIR = path.join(E2E_DIR, 'web');
const SERVER_DIR = path.join(E2E_DIR, 'server');

/**
 * A registration form that lives only in a test folder (new-registration-kind.spec.ts): the
 * server reads it at start, and the build compiles its validators into the app.
 */
const FORMS_DIR = 'tests/fixtures/forms-dir';

/** The fake LEI registry's port (tests/fakes/leiRegistry.ts): the one third party the wizard calls. */
export const LEI_PORT = Number(process.env.E2E_LEI_PORT ?? 8182);

/** A first start initialises PostgreSQL, migrates and seeds: slow on a loaded 2-core machine. */
export const PORTAL_START_TIMEOUT_MS = 180_000;
/** The server's own shutdown gives up after 10 s (src/server/main.ts); then it is killed. */
const STOP_TIMEOUT_MS = 20_000;

/**
 * `npm run build` once for the whole run, into the run's folder (not dist/, which other builds
 * on the machine share). Its output is shown only when it fails.
 */
export async function buildPortal(): Promise<void> {
  fs.rmSync(E2E_DIR, { recursive: true, force: true });
  fs.mkdirSync(E2E_DIR, { recursive: true });
  const started = Date.now();
  const build = spawn('npm', ['run', 'build'], {
    env: { ...process.env, WEB_DIR, SERVER_OUT_DIR: SERVER_DIR, FORMS_DIR },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  build.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  build.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | string>((resolve) => {
    build.once('error', (error) => resolve(error.message));
    build.once('close', (status, signal) => resolve(status ?? signal ?? 'unknown'));
  });
  if (code !== 0) {
    throw new Error(`npm run build failed (${code}), so no portal can start:\n${output}`);
  }
  console.log(`e2e: portal built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** A running portal of one worker. */
export interface Portal {
  /** Its origin, the worker's `baseURL`. */
  url: string;
  /**
   * The file its outbox is kept in (src/server/mail/mailer.ts): `GET /dev/outbox` answers no one
   * behind a proxy, and this portal trusts one (TRUST_PROXY, support.ts).
   */
  outboxFile: string;
  /** Stops it (and its embedded PostgreSQL) and waits until the process has ended. */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** The last lines of a worker's server log, for an error message. */
function logTail(logFile: string): string {
  try {
    return fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
  } catch {
    return '(no output)';
  }
}

/**
 * Starts the built portal for worker `workerIndex` in `.e2e-data/worker-<index>` and resolves
 * once it answers; a start that fails or hangs throws with the server's last lines and ends it.
 */
export async function startPortal(workerIndex: number): Promise<Portal> {
  const main = path.resolve(SERVER_DIR, 'main.js');
  if (!fs.existsSync(main)) {
    throw new Error(
      `${main} is missing: the e2e globalSetup builds it (run \`npx playwright test\`)`,
    );
  }
  const dataDir = path.join(E2E_DIR, `worker-${workerIndex}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const logFile = path.join(dataDir, 'server.log');
  // A run's emails only: the folder may hold the last run's.
  const outboxFile = path.join(dataDir, DEV_OUTBOX_FILE);
  fs.rmSync(outboxFile, { force: true });
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    WEB_DIR,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    LEI_API_URL: `http://127.0.0.1:${LEI_PORT}/api/v1`,
    // Each test's pages say which visitor they are (support.ts).
    TRUST_PROXY: '127.0.0.1',
    FORMS_DIR,
    // Every sign-up, sign-in and password change hashes; at the default cost (2^17, checked in
    // tests/server/hardening.test.ts) a hash from a new browser runs 10 nice levels down
    // (auth/hashThreads.ts) and, with two workers' browsers and servers keeping both cores busy,
    // waited seconds for a core. The cost is recorded in each hash, as in the server tests' 2^10.
    PASSWORD_COST: '12',
  };
  // Its own embedded database, whatever the calling shell points at.
  delete env.DATABASE_URL;
  const log = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, [main], { env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  fs.writeFileSync(path.join(dataDir, 'server.pid'), String(child.pid));

  const stop = async () => {
    if (!exited(child)) {
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await ended;
      clearTimeout(timer);
    }
    fs.rmSync(path.join(dataDir, 'server.pid'), { force: true });
  };

  const url = `http://localhost:${port}`;
  const deadline = Date.now() + PORTAL_START_TIMEOUT_MS;
  for (;;) {
    if (exited(child)) {
      await stop();
      throw new Error(
        `The e2e portal of worker ${workerIndex} exited (${child.exitCode ?? child.signalCode}) ` +
          `before answering; its log (${logFile}) ends:\n${logTail(logFile)}`,
      );
    }
    try {
      if ((await fetch(`http://127.0.0.1:${port}/exchange/api/web/config`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `The e2e portal of worker ${workerIndex} did not answer on port ${port} within ` +
          `${PORTAL_START_TIMEOUT_MS / 1000} s; its log (${logFile}) ends:\n${logTail(logFile)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, outboxFile, stop };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readPid(file: string): number | undefined {
  try {
    // postmaster.pid holds the pid on its first line.
    const pid = Number(fs.readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function endProcess(pid: number, signal: NodeJS.Signals): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, signal);
  for (let waited = 0; alive(pid) && waited < STOP_TIMEOUT_MS; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

/**
 * Ends the servers (and their PostgreSQL) of workers that could not stop their own: a worker
 * stops its portal when it ends, so after a normal run there is nothing to do.
 */
export async function stopLeftoverPortals(): Promise<string[]> {
  const ended: string[] = [];
  const workers = fs.existsSync(E2E_DIR)
    ? fs.readdirSync(E2E_DIR).filter((name) => name.startsWith('worker-'))
    : [];
  for (const worker of workers) {
    const server = readPid(path.join(E2E_DIR, worker, 'server.pid'));
    if (server !== undefined && alive(server)) {
      await endProcess(server, 'SIGTERM');
      ended.push(`${worker} server ${server}`);
    }
    // SIGINT is PostgreSQL's fast shutdown.
    const postgres = readPid(path.join(E2E_DIR, worker, 'postgres', 'postmaster.pid'));
    if (postgres !== undefined && alive(postgres)) {
      await endProcess(postgres, 'SIGINT');
      ended.push(`${worker} PostgreSQL ${postgres}`);
    }
  }
  return ended;
}
