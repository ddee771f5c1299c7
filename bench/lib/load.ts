/**
 * The load part of the bench (`BENCH_ONLY=load npm run bench`, or `npm run bench -- load`):
 * requests per second and p99 latency with autocannon at 50 connections on loopback, each beside
 * a bare Fastify route measured in the same run:
 * - the signed-in statement GET (the demo's approved customer);
 * - the public disclosures listing (the demo's year of documents);
 * - password sign-ins per second per core under a burst of unknown-email sign-ins from many
 *   addresses, and a real user's sign-in latency (p95) during it and during a one-address attack
 *   that the rate limits answer with 429;
 * - the server's RSS through the run.
 * The server is the real one (`node --import tsx src/server/main.ts`, embedded PostgreSQL, the
 * demo seed, the production password cost), started in the bench's temp folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { CSRF_COOKIE, CSRF_HEADER } from '../../src/shared/api/http';
import { Client, rssMb, waitForServer } from './server';
import { freePort, ms, percentile, ratio, ratioRow, sleep, type Row } from './util';
import { compiledServer } from './compiledServer';

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; p50: number };
  non2xx: number;
  errors: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Cannon = (options: {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: Array<{
    method?: string;
    path?: string;
    body?: string;
    headers?: Record<string, string>;
  }>;
  idReplacement?: boolean;
}) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;

/**
 * autocannon in a process of its own, for load that runs beside a latency being measured (the
 * attack beside the real user's sign-ins): in this process its 50 connections kept the event loop
 * busy, and the user's answers waited on the measuring side, not only on the server. An attacker
 * is another machine; here it is at least another process, and the last in line for the CPU.
 */
async function autocannonApart(
  projectRoot: string,
  options: Parameters<Cannon>[0],
  onChild: (child: ChildProcess) => void,
): Promise<CannonResult> {
  const source = `require('autocannon')(JSON.parse(process.argv[1])).then((result) => {
      const { requests, latency, non2xx, errors, statusCodeStats } = result;
      process.stdout.write(JSON.stringify({ requests, latency, non2xx, errors, statusCodeStats }));
    });`;
  // At the lowest CPU priority: on this 2-core machine the attacker's own work would otherwise
  // take a core from the server it attacks, which a remote attacker's does not.
  const child = spawn(
    'nice',
    ['-n', '19', process.execPath, '-e', source, JSON.stringify(options)],
    {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  onChild(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${code}`);
  return JSON.parse(output) as CannonResult;
}

const CONNECTIONS = 50;
const SECONDS = Math.max(3, Number(process.env.BENCH_LOAD_SECONDS ?? 10));
const APPROVED = { email: 'approved@demo.northstar.example', password: 'Demo-Pass-2026!' };

interface LoadFigures {
  bare: CannonResult;
  /** First loads (no If-None-Match) and reloads (If-None-Match with the current ETag: 304). */
  statement: CannonResult;
  statementRevalidated: CannonResult;
  disclosures: CannonResult;
  disclosuresRevalidated: CannonResult;
  /** The real user's sign-ins with nothing else running: the baseline of the two below. */
  userAlone: UserSignins;
  signinsPerSecondPerCore: number;
  signinBurst: { answered: number; seconds: number; statuses: Record<number, number> };
  /** A real user's sign-in latencies (ms) during the burst and the attack, from a browser that
   * has signed in before (its device cookie) and from a new one. */
  userDuringSpread: UserSignins;
  userDuringAttack: UserSignins;
  attack: CannonResult;
  rss: { start: number; peak: number; end: number };
}

/** A bare Fastify server in its own process: the ceiling of this machine's HTTP stack. */
async function startBareFastify(
  projectRoot: string,
): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const source = `const app = require('fastify')(); app.get('/', async () => ({ hello: 'world' }));
    app.listen({ port: ${port}, host: '127.0.0.1' }).then(() => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', source], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { port, child };
}

/** The portal as `npm start` runs it, on a free port; `env` adds to its environment (FORMS_DIR). */
export async function startPortal(
  projectRoot: string,
  tempDir: string,
  webDir: string | undefined,
  env: NodeJS.ProcessEnv = {},
) {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(tempDir, 'load-data'),
    WEB_DIR: webDir ?? path.join(tempDir, 'no-web'),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
  };
  delete childEnv.NODE_ENV;
  delete childEnv.DATABASE_URL;
  delete childEnv.SMTP_URL;
  delete childEnv.PASSWORD_COST;
  let output = '';
  const child = spawn(process.execPath, [await compiledServer(projectRoot)], {
    cwd: projectRoot,
    env: childEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  await waitForServer(port, child, () => output);
  return { port, child };
}

interface UserSignins {
  returning: number[];
  newBrowser: number[];
}

const DEVICE_COOKIE = 'clearing_device';

/**
 * What Chromium sends with every request it makes: the encodings it accepts. The statement and
 * the listing answer browsers, so the load runs ask as they do (and bare Fastify is asked the
 * same, though its 17-byte answer is never compressed).
 */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/**
 * One timed sign-in of the approved demo customer from `address`; its latency in ms. With
 * `device`, the browser holds the device cookie of its earlier sign-in.
 */
async function realSignIn(port: number, address: string, device?: string): Promise<number> {
  const client = new Client(port, address);
  if (device) client.keepCookie(DEVICE_COOKIE, device);
  await client.request('GET', '/exchange/api/web/config');
  const started = performance.now();
  const reply = await client.json('POST', '/exchange/api/web/auth/signin', APPROVED);
  const elapsed = performance.now() - started;
  if (reply.status !== 200) throw new Error(`real sign-in answered ${reply.status} ${reply.body}`);
  return elapsed;
}

/**
 * Signs the real user in, one sign-in after another 300 ms apart, from rotating addresses until
 * `until` resolves: from a returning browser (its device cookie) and from new browsers side by
 * side.
 */
async function realUserDuring(
  port: number,
  until: Promise<unknown>,
  prefixes: { returning: string; newBrowser: string },
  device: string,
): Promise<UserSignins> {
  let done = false;
  void Promise.resolve(until).finally(() => (done = true));
  const loop = async (prefix: string, withDevice?: string) => {
    const samples: number[] = [];
    // Rate limits: 10 a minute per address and email, so each address signs in a few times only.
    for (let i = 0; !done; i++) {
      samples.push(await realSignIn(port, `${prefix}.${1 + (i % 20)}`, withDevice));
      await sleep(300);
    }
    return samples;
  };
  const [returning, newBrowser] = await Promise.all([
    loop(prefixes.returning, device),
    loop(prefixes.newBrowser),
  ]);
  return { returning, newBrowser };
}

/** The real user's sign-ins one after another with no load, the same two ways. */
async function realUserAlone(
  port: number,
  prefixes: { returning: string; newBrowser: string },
  device: string,
  count: number,
): Promise<UserSignins> {
  const returning: number[] = [];
  const newBrowser: number[] = [];
  for (let i = 0; i < count; i++) {
    returning.push(await realSignIn(port, `${prefixes.returning}.${1 + (i % 20)}`, device));
    newBrowser.push(await realSignIn(port, `${prefixes.newBrowser}.${1 + (i % 20)}`));
    await sleep(300);
  }
  return { returning, newBrowser };
}

const describeSignins = (signins: UserSignins) =>
  `returning browser ${signins.returning.map((t) => t.toFixed(0)).join(' ')} ms; ` +
  `new browser ${signins.newBrowser.map((t) => t.toFixed(0)).join(' ')} ms`;

export async function loadFigures(options: {
  projectRoot: string;
  tempDir: string;
  webDir?: string;
  log: (line: string) => void;
  onChild: (child: ChildProcess) => void;
}): Promise<LoadFigures> {
  const { log } = options;
  const bareServer = await startBareFastify(options.projectRoot);
  options.onChild(bareServer.child);
  log(`load: starting the portal (embedded PostgreSQL, demo seed)`);
  const portal = await startPortal(options.projectRoot, options.tempDir, options.webDir);
  options.onChild(portal.child);
  const base = `http://127.0.0.1:${portal.port}`;
  const pid = portal.child.pid!;
  const rssSamples: number[] = [rssMb(pid)];
  const sampler = setInterval(() => rssSamples.push(rssMb(pid)), 250);
  try {
    log(`load: bare Fastify, ${CONNECTIONS} connections, ${SECONDS} s`);
    const bare = await autocannon({
      url: `http://127.0.0.1:${bareServer.port}/`,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: BROWSER_HEADERS,
    });
    bareServer.child.kill();

    // The approved demo customer, signed in once; its cookies on every statement request.
    const user = new Client(portal.port, '127.0.0.5');
    await user.request('GET', '/exchange/api/web/config');
    const signin = await user.json('POST', '/exchange/api/web/auth/signin', APPROVED);
    if (signin.status !== 200) throw new Error(`sign-in failed: ${signin.status} ${signin.body}`);
    const me = JSON.parse((await user.request('GET', '/exchange/api/web/user')).body) as {
      organizationId: string;
    };
    const cookie = user.cookieHeader();
    // The browser the real user signs in from again below: known to the account.
    const device = user.cookie(DEVICE_COOKIE);
    if (!device) throw new Error('the sign-in set no device cookie');
    const statementPath = `/exchange/api/web/customer/${me.organizationId}/statement`;
    const check = await fetch(base + statementPath, { headers: { ...BROWSER_HEADERS, cookie } });
    if (check.status !== 200) throw new Error(`statement answered ${check.status}`);
    const statementEtag = check.headers.get('etag');
    if (!statementEtag) throw new Error('the statement answered no ETag');
    log(`load: statement GET, first loads, ${CONNECTIONS} connections, ${SECONDS} s`);
    const statement = await autocannon({
      url: base + statementPath,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { ...BROWSER_HEADERS, cookie },
    });
    // A browser's reload sends the ETag it holds: the answer is a 304 with no body.
    log(`load: statement GET, reloads (If-None-Match), ${CONNECTIONS} connections, ${SECONDS} s`);
    const statementRevalidated = await autocannon({
      url: base + statementPath,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { ...BROWSER_HEADERS, cookie, 'if-none-match': statementEtag },
    });

    const disclosuresUrl = `${base}/clearing/api/web/disclosures`;
    const disclosuresEtag = (await fetch(disclosuresUrl, { headers: BROWSER_HEADERS })).headers.get(
      'etag',
    );
    if (!disclosuresEtag) throw new Error('the disclosures listing answered no ETag');
    log(`load: disclosures listing, first loads, ${CONNECTIONS} connections, ${SECONDS} s`);
    const disclosures = await autocannon({
      url: disclosuresUrl,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: BROWSER_HEADERS,
    });
    log(
      `load: disclosures listing, reloads (If-None-Match), ${CONNECTIONS} connections, ${SECONDS} s`,
    );
    const disclosuresRevalidated = await autocannon({
      url: disclosuresUrl,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { ...BROWSER_HEADERS, 'if-none-match': disclosuresEtag },
    });

    log('load: the real user signing in with no load (the baseline of the sign-in figures)');
    const userAlone = await realUserAlone(
      portal.port,
      { returning: '127.0.254', newBrowser: '127.0.255' },
      device,
      10,
    );
    log(`  real user alone: ${describeSignins(userAlone)}`);

    // Unknown-email sign-ins from 200 addresses, 8 at a time: each one a full scrypt.
    log(`load: sign-in burst from many addresses, ${SECONDS} s, a real user signing in meanwhile`);
    const statuses: Record<number, number> = {};
    let answered = 0;
    const burstStarted = performance.now();
    const burst = (async () => {
      const deadline = burstStarted + SECONDS * 1000;
      let n = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (performance.now() < deadline) {
            const i = n++;
            const client = new Client(portal.port, `127.0.${10 + (i % 200)}.${1 + (i % 7)}`);
            await client.request('GET', '/exchange/api/web/config');
            const reply = await client.json('POST', '/exchange/api/web/auth/signin', {
              email: `nobody.${i}@example.test`,
              password: 'Wrong-Pass-1',
            });
            statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
            if (reply.status === 401) answered++;
          }
        }),
      );
    })();
    const userDuringSpread = await realUserDuring(
      portal.port,
      burst,
      { returning: '127.0.250', newBrowser: '127.0.252' },
      device,
    );
    await burst;
    log(`  real user during the burst: ${describeSignins(userDuringSpread)}`);
    const burstSeconds = (performance.now() - burstStarted) / 1000;

    // One address hammering sign-in with unknown emails: the limits answer 429.
    log(`load: sign-in attack from one address, ${CONNECTIONS} connections, ${SECONDS} s`);
    const attacker = new Client(portal.port, '127.0.0.1');
    await attacker.request('GET', '/exchange/api/web/config');
    const csrf = attacker.cookie(CSRF_COOKIE)!;
    const attack = autocannonApart(
      options.projectRoot,
      {
        url: `${base}/exchange/api/web/auth/signin`,
        connections: CONNECTIONS,
        duration: SECONDS,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: `${CSRF_COOKIE}=${csrf}`,
          [CSRF_HEADER]: csrf,
        },
        body: JSON.stringify({ email: 'nobody.[<id>]@example.test', password: 'Wrong-Pass-1' }),
        idReplacement: true,
      },
      options.onChild,
    );
    const userDuringAttack = await realUserDuring(
      portal.port,
      attack,
      { returning: '127.0.251', newBrowser: '127.0.253' },
      device,
    );
    log(`  real user during the attack: ${describeSignins(userDuringAttack)}`);
    return {
      bare,
      statement,
      statementRevalidated,
      disclosures,
      disclosuresRevalidated,
      userAlone,
      signinsPerSecondPerCore: answered / burstSeconds / os.availableParallelism(),
      signinBurst: { answered, seconds: burstSeconds, statuses },
      userDuringSpread,
      userDuringAttack,
      attack: await attack,
      rss: {
        start: rssSamples[0]!,
        peak: Math.max(...rssSamples.filter(Number.isFinite)),
        end: rssMb(pid),
      },
    };
  } finally {
    clearInterval(sampler);
  }
}

const perSecond = (n: number) => `${Math.round(n).toLocaleString('en')}/s`;
const answered = (result: CannonResult, status: string) =>
  result.requests.total > 0 &&
  (result.statusCodeStats[status]?.count ?? 0) === result.requests.total;

/**
 * The load part's rows of the bench table, each judged by its ratio to a baseline of the same
 * run (issue 29): throughput against the bare Fastify route, the real user's sign-in p95 under
 * load against the same sign-ins with no load.
 */
export function loadRows(figures: LoadFigures): Row[] {
  const { bare, statement, statementRevalidated, disclosures, disclosuresRevalidated } = figures;
  const attack429 = figures.attack.statusCodeStats['429']?.count ?? 0;
  const attackTotal = figures.attack.requests.total;
  const p95 = (samples: number[]) => percentile(samples, 95);
  const throughput = (
    figure: string,
    result: CannonResult,
    atLeast: number,
    status: '200' | '304',
  ): Row =>
    ratioRow({
      figure: `${figure}, ${CONNECTIONS} connections (req/s; p99)`,
      value: result.requests.average,
      valueNote: `p99 ${ms(result.latency.p99)}`,
      baseline: bare.requests.average,
      show: perSecond,
      baselineIs: `bare Fastify; p99 ${ms(bare.latency.p99)}`,
      goal: { atLeast },
      also: { ok: answered(result, status), goal: `all ${status}` },
    });
  const aloneP95 = p95(figures.userAlone.returning);
  const newAloneP95 = p95(figures.userAlone.newBrowser);
  return [
    throughput('statement GET, signed in, first loads', statement, 0.15, '200'),
    throughput(
      'statement GET, signed in, reloads (If-None-Match)',
      statementRevalidated,
      0.5,
      '304',
    ),
    throughput('disclosures listing, public, first loads', disclosures, 0.35, '200'),
    throughput(
      'disclosures listing, public, reloads (If-None-Match)',
      disclosuresRevalidated,
      0.5,
      '304',
    ),
    {
      figure: 'password sign-ins per second per core (burst from 200 addresses)',
      value: `${figures.signinsPerSecondPerCore.toFixed(1)}/s/core`,
      baseline: `${figures.signinBurst.answered} in ${figures.signinBurst.seconds.toFixed(1)} s`,
      ratio: '-',
      goal: '-',
      met: null,
    },
    ratioRow({
      figure: 'real user sign-in p95 during that burst (a browser that signed in before)',
      value: p95(figures.userDuringSpread.returning),
      valueNote: `${figures.userDuringSpread.returning.length} sign-ins`,
      baseline: aloneP95,
      show: ms,
      baselineIs: 'with no load',
      goal: { atMost: 2 },
    }),
    ratioRow({
      figure: 'real user sign-in p95 during that burst (a new browser, the account known here)',
      value: p95(figures.userDuringSpread.newBrowser),
      valueNote: `${figures.userDuringSpread.newBrowser.length} sign-ins`,
      baseline: newAloneP95,
      show: ms,
      baselineIs: 'with no load',
      goal: { atMost: 3 },
    }),
    ratioRow({
      figure: `real user sign-in p95 during a one-address attack (${CONNECTIONS} connections, a browser that signed in before)`,
      value: p95(figures.userDuringAttack.returning),
      valueNote: `attacker ${attack429}/${attackTotal} answered 429`,
      baseline: aloneP95,
      show: ms,
      baselineIs: 'with no load',
      goal: { atMost: 2 },
      also: { ok: attack429 > 0.9 * attackTotal, goal: 'attacker 429' },
    }),
    ratioRow({
      figure: 'real user sign-in p95 during that attack (a new browser, the account known here)',
      value: p95(figures.userDuringAttack.newBrowser),
      valueNote: `attacker ${attack429}/${attackTotal} answered 429`,
      baseline: newAloneP95,
      show: ms,
      baselineIs: 'with no load',
      goal: { atMost: 3 },
      also: { ok: attack429 > 0.9 * attackTotal, goal: 'attacker 429' },
    }),
    {
      figure: 'server RSS through the load run',
      value: `${figures.rss.peak.toFixed(0)} MB peak`,
      baseline: `${figures.rss.start.toFixed(0)} MB at start, ${figures.rss.end.toFixed(0)} MB at end`,
      ratio: ratio(figures.rss.peak, figures.rss.start),
      goal: '-',
      met: null,
    },
  ];
}
