/**
 * Peak server memory while 10 registrations of ~10 MB arrive at once.
 *
 * Starts the real server as `npm start` runs it (compiled; `compiledServer.ts`), one process whose RSS we read,
 * on a free loopback port with a temp DATA_DIR (its own embedded PostgreSQL, NODE_ENV unset so
 * the demo seed runs), creates 10 verified, signed-in users through the API (signup → the dev
 * outbox's link → verify-email → signin; cookies kept, the csrf_token cookie echoed in the
 * x-csrf-token header; each user from its own 127.0.0.x address, since sign-up is rate-limited per
 * IP), then POSTs the 10 multipart submissions concurrently while sampling VmRSS every 20 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { benchForm } from './validation';
import { signedDocuments, toPayload } from '../../src/shared/forms/payload/payload';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import type { BenchFile } from './files';
import { freePort, sleep } from './util';
import { compiledServer } from './compiledServer';

const PASSWORD = 'Bench-Pass-1-long';
const USERS = 10;

interface ServerFigures {
  idleStartMb: number;
  idleBeforeMb: number;
  peakMb: number;
  /** PostgreSQL's processes together at their sampled peak (shared memory counted per process). */
  postgresPeakMb: number;
  bodyBytes: number;
  statuses: number[];
  burstMs: number;
  samples: number;
  /** JS files the sign-in page loaded in Chromium from this server. */
  signinScripts: string[];
}

/** VmRSS of a process in MB, or NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

function descendants(pid: number): number[] {
  const out: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const current = stack.pop()!;
    let children: string;
    try {
      children = fs.readFileSync(`/proc/${current}/task/${current}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
      out.push(child);
      stack.push(child);
    }
  }
  return out;
}

interface Reply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A loopback HTTP client with its own source address and cookie jar. */
export class Client {
  private cookies = new Map<string, string>();
  constructor(
    private readonly port: number,
    private readonly localAddress: string,
  ) {}

  request(
    method: string,
    pathname: string,
    body?: { data: Buffer | string; type: string },
  ): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const csrf = this.cookies.get('csrf_token');
    if (csrf) headers['x-csrf-token'] = csrf;
    if (body) {
      headers['content-type'] = body.type;
      headers['content-length'] = String(Buffer.byteLength(body.data));
    }
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: this.port,
          localAddress: this.localAddress,
          method,
          path: pathname,
          headers,
          timeout: 120_000,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            for (const cookie of response.headers['set-cookie'] ?? []) {
              const [pair] = cookie.split(';');
              const at = pair!.indexOf('=');
              this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
            }
            resolve({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              headers: response.headers,
            });
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error(`${method} ${pathname} timed out`)));
      request.on('error', reject);
      if (body) request.write(body.data);
      request.end();
    });
  }

  /** Keeps a cookie as if a response had set it (a browser's cookie from an earlier visit). */
  keepCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  /** The Cookie header this client sends. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  json(method: string, pathname: string, value: unknown) {
    return this.request(method, pathname, {
      data: JSON.stringify(value),
      type: 'application/json',
    });
  }
}

async function expectStatus(reply: Promise<Reply>, what: string, ok = [200, 201]) {
  const result = await reply;
  if (!ok.includes(result.status)) throw new Error(`${what}: ${result.status} ${result.body}`);
  return result;
}

async function signedInUser(
  port: number,
  index: number,
): Promise<{ client: Client; email: string }> {
  const client = new Client(port, `127.0.0.${11 + index}`);
  const email = `bench.${index}.${Date.now().toString(36)}@example.test`;
  await expectStatus(client.request('GET', '/exchange/api/web/config'), 'config');
  await expectStatus(
    client.json('POST', '/exchange/api/web/auth/signup', { email, authOrigin: 'Clearing' }),
    'signup',
  );
  // Sign-up mail goes out in the background (the same work for known and unknown emails), so
  // the link may land just after the answer.
  let link: string | undefined;
  for (let attempt = 0; !link && attempt < 100; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const outbox = await expectStatus(client.request('GET', '/dev/outbox'), 'outbox');
    const messages = JSON.parse(outbox.body) as { to: string; links: string[] }[];
    link = messages
      .filter((message) => message.to === email)
      .flatMap((message) => message.links)
      .find((candidate) => candidate.includes('verify-email'));
  }
  if (!link) throw new Error(`no verify-email link for ${email}`);
  const token = new URL(link).searchParams.get('access_token');
  await expectStatus(
    client.json('POST', '/exchange/api/web/auth/verify-email', {
      token,
      email,
      password: PASSWORD,
    }),
    'verify-email',
  );
  await expectStatus(
    client.json('POST', '/exchange/api/web/auth/signin', { email, password: PASSWORD }),
    'signin',
  );
  // The e-sign consent the page asks for before the first signature (a registration needs it).
  const consent = await expectStatus(
    client.request('GET', '/exchange/api/web/esign-consent'),
    'esign-consent',
  );
  const { version } = JSON.parse(consent.body) as { version: string };
  await expectStatus(
    client.json('POST', '/exchange/api/web/esign-consent', { version }),
    'esign-consent',
  );
  return { client, email };
}

/** A multipart body, encoded the way a browser sends FormData. */
async function submissionBody(
  email: string,
  files: BenchFile[],
  documents: Record<string, Blob>,
): Promise<{ data: Buffer; type: string }> {
  const answers = structuredClone(benchForm('individual').example) as Answers;
  answers.primaryEmailAddress = email;
  const blobs: Record<string, Blob> = {};
  for (const file of files) {
    answers[file.pointer.slice(1)] = { name: file.name, type: file.type, size: file.size };
    blobs[file.pointer] = new Blob([new Uint8Array(fs.readFileSync(file.path))], {
      type: file.type,
    });
  }
  const form = toPayload(benchForm('individual'), answers, blobs, documents);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    data: Buffer.from(await request.arrayBuffer()),
    type: request.headers.get('content-type')!,
  };
}

export async function waitForServer(port: number, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output()}`);
    try {
      const reply = await new Client(port, '127.0.0.1').request('GET', '/exchange/api/web/config');
      if (reply.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`server did not start in 90 s:\n${output()}`);
}

/** Stops the server gracefully (it stops its PostgreSQL), then by force. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = sleep(15_000).then(() => 'timeout');
  if ((await Promise.race([exited.then(() => 'done'), timer])) === 'timeout' && child.pid) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export async function serverFigures(options: {
  projectRoot: string;
  tempDir: string;
  webDir: string;
  files: BenchFile[];
  browser: Browser;
  log: (line: string) => void;
  onChild: (child: ChildProcess) => void;
}): Promise<ServerFigures> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(options.tempDir, 'data'),
    WEB_DIR: options.webDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
  };
  delete env.NODE_ENV;
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  let output = '';
  const child = spawn(process.execPath, [await compiledServer(options.projectRoot)], {
    cwd: options.projectRoot,
    env,
    detached: true, // its own process group, so a forced stop also reaches PostgreSQL
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onChild(child);
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const pid = child.pid!;

  await waitForServer(port, child, () => output);
  await sleep(1000);
  const idleStartMb = rssMb(pid);
  options.log(`  server up on :${port}, RSS ${idleStartMb.toFixed(0)} MB`);

  // What /clearing/signin loads, seen from the browser.
  const context = await options.browser.newContext();
  const signinScripts: string[] = [];
  try {
    const page = await context.newPage();
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.endsWith('.js')) {
        signinScripts.push(new URL(response.url()).pathname.replace('/clearing/', ''));
      }
    });
    await page.goto(`http://127.0.0.1:${port}/clearing/signin`, { waitUntil: 'networkidle' });
  } finally {
    await context.close();
  }

  const users = [];
  for (let i = 0; i < USERS; i++) users.push(await signedInUser(port, i));
  const documents: Record<string, Blob> = {};
  for (const document of signedDocuments(benchForm('individual'))) {
    const file = path.join(options.projectRoot, 'assets/pdfs', path.basename(document.url));
    documents[document.url] = new Blob([new Uint8Array(fs.readFileSync(file))], {
      type: 'application/pdf',
    });
  }
  const bodies: { data: Buffer; type: string }[] = [];
  for (const user of users) bodies.push(await submissionBody(user.email, options.files, documents));
  const bodyBytes = bodies[0]!.data.length;
  options.log(`  ${USERS} users signed in; bodies of ${(bodyBytes / 1048576).toFixed(1)} MB each`);

  // Idle baseline: the same server, settled, just before the burst.
  await sleep(1500);
  const idle: number[] = [];
  for (let i = 0; i < 25; i++) {
    idle.push(rssMb(pid));
    await sleep(20);
  }
  const idleBeforeMb = Math.max(...idle);

  let peakMb = 0;
  let postgresPeakMb = 0;
  let samples = 0;
  let sampling = true;
  const sampler = (async () => {
    let tick = 0;
    while (sampling) {
      peakMb = Math.max(peakMb, rssMb(pid));
      samples++;
      if (tick++ % 5 === 0) {
        const postgres = descendants(pid).reduce((sum, p) => sum + (rssMb(p) || 0), 0);
        postgresPeakMb = Math.max(postgresPeakMb, postgres);
      }
      await sleep(20);
    }
  })();
  const start = Date.now();
  let replies: Reply[];
  try {
    replies = await Promise.all(
      users.map((user, i) =>
        user.client.request('POST', '/exchange/api/web/registration/individual', bodies[i]),
      ),
    );
  } finally {
    const burstMs = Date.now() - start;
    await sleep(500);
    sampling = false;
    await sampler;
    options.log(`  burst done in ${burstMs} ms`);
  }
  const burstMs = Date.now() - start - 500;
  const statuses = replies.map((reply) => reply.status);
  const failed = replies.find((reply) => reply.status !== 201);
  if (failed) options.log(`  a submission failed: ${failed.status} ${failed.body.slice(0, 300)}`);

  await stopServer(child);
  return {
    idleStartMb,
    idleBeforeMb,
    peakMb,
    postgresPeakMb,
    bodyBytes,
    statuses,
    burstMs,
    samples,
    signinScripts,
  };
}
