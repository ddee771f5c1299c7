/**
 * Two real portal processes (`src/server/main.ts` compiled, as `npm start` runs it) on one PostgreSQL database, as behind a
 * load balancer: a session made on A works on B, a rate limit counts requests to both, a
 * document uploaded through A downloads through B, and the live market on either comes from the
 * one simulator (its leader elected by an advisory lock, its events fanned out by NOTIFY).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createPool } from '../../src/server/db/database';
import { freePort } from '../../src/server/db/embeddedPostgres';
import { publishDisclosure } from '../../src/server/disclosures/publish';
import { saveStatement } from '../../src/server/db/statements';
import { demoStatement } from '../../src/server/seed/demoReview';
import { makeSampleDisclosurePdf } from '../../src/server/disclosures/samplePdf';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '../../src/shared/api/http';
import { MARKET_STREAM_PATH, type MarketServerMessage } from '../../src/shared/api/market';
import { withDatabase } from './globalSetup';
import { compiledEntry } from '../compiled';
import { ESIGN_CONSENT_URL } from './authHelpers';
import { IndividualRegistration, samplePdf, URL_INDIVIDUAL } from './registrationHelpers';

interface WsClient {
  send(data: string): void;
  close(): void;
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
}
type WsConstructor = new (url: string, options?: { headers?: Record<string, string> }) => WsClient;
const WebSocket = createRequire(import.meta.url)('ws') as WsConstructor;

const API = '/exchange/api/web';
const PASSWORD = 'Secret-Pass-1';
const SHARED_FIELD_KEY = `two:${crypto.randomBytes(32).toString('base64')}`;
const SHARED_CSRF_KEY = `two-csrf:${crypto.randomBytes(32).toString('base64')}`;

/** One portal process and everything it printed. */
class Instance {
  output = '';
  private constructor(
    readonly base: string,
    readonly child: ChildProcess,
  ) {}

  static async start(name: string, databaseUrl: string): Promise<Instance> {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-${name}-`));
    const child = spawn(process.execPath, [compiledEntry('src/server/main.ts')], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        SEED_DEMO: '0',
        PASSWORD_COST: '10',
        // The keys both share, as instances behind a load balancer do: one opens encrypted
        // answers another sealed, the other checks CSRF tokens another minted (plugins/csrf.ts).
        FIELD_ENCRYPTION_KEYS: SHARED_FIELD_KEY,
        CSRF_KEYS: SHARED_CSRF_KEY,
        WEB_DIR: '/nonexistent',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const instance = new Instance(`http://127.0.0.1:${port}`, child);
    const ready = new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        instance.output += chunk.toString();
        if (instance.output.includes('Clearing member portal:')) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.on('exit', (code) => reject(new Error(`${name} exited ${code}: ${instance.output}`)));
    });
    child.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
    await ready;
    return instance;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.on('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** A browser-like client: keeps cookies, echoes the CSRF token; may talk to either instance. */
class Browser {
  readonly cookies = new Map<string, string>();

  async request(
    instance: Instance,
    method: string,
    url: string,
    body?: unknown,
    ifNoneMatch?: string,
  ) {
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    if (ifNoneMatch) headers['if-none-match'] = ifNoneMatch;
    const csrf = this.cookies.get(CSRF_COOKIE);
    if (csrf) headers[CSRF_HEADER] = csrf;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(instance.base + url, {
      method,
      headers,
      ...(payload !== undefined ? { body: payload } : {}),
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    return response;
  }

  get = (instance: Instance, url: string) => this.request(instance, 'GET', url);
  post = (instance: Instance, url: string, body: unknown = {}) =>
    this.request(instance, 'POST', url, body);

  async prime(instance: Instance) {
    await this.get(instance, `${API}/config`);
  }
}

let a: Instance;
let b: Instance;
let adminUrl: string;
let database: string;
let pool: pg.Pool;
let registration: IndividualRegistration;

beforeAll(async () => {
  registration = await IndividualRegistration.create();
  adminUrl = inject('adminDatabaseUrl');
  database = `portal_two_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = withDatabase(adminUrl, database);
  pool = createPool(url);
  // Started together: migrations run once, under their advisory lock.
  [a, b] = await Promise.all([Instance.start('a', url), Instance.start('b', url)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await pool?.end();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
}, 60_000);

/** Signs up through `on`, verifies through the other instance, signs in through `on`. */
async function signedUp(on: Instance, other: Instance) {
  const email = `two.${crypto.randomBytes(4).toString('hex')}@example.test`;
  const browser = new Browser();
  await browser.prime(on);
  const signup = await browser.post(on, `${API}/auth/signup`, { email, authOrigin: 'Clearing' });
  expect(signup.status).toBe(200);
  // The outbox is per process (development); the token it carries is in the shared database.
  // Sign-up mail goes out in the background (the same work for known and unknown emails), so
  // the message may land just after the answer.
  let mail: { to: string; links: string[] } | undefined;
  for (let attempt = 0; !mail && attempt < 100; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const outbox = (await (await fetch(`${on.base}/dev/outbox`)).json()) as Array<{
      to: string;
      links: string[];
    }>;
    mail = outbox.filter((m) => m.to === email).at(-1);
  }
  expect(mail, `no sign-up mail to ${email}`).toBeDefined();
  const link = new URL(mail!.links[0]!);
  const verify = await browser.post(other, `${API}/auth/verify-email`, {
    token: link.searchParams.get('access_token'),
    email,
    password: PASSWORD,
  });
  expect(verify.status).toBe(200);
  const signin = await browser.post(on, `${API}/auth/signin`, { email, password: PASSWORD });
  expect(signin.status).toBe(200);
  return { browser, email };
}

describe('two instances on one database', () => {
  it('a session made on A works on B, and signing out on B ends it on A', async () => {
    const { browser, email } = await signedUp(a, b);
    const onB = await browser.get(b, `${API}/user`);
    expect(onB.status).toBe(200);
    expect(((await onB.json()) as { email: string }).email).toBe(email);
    expect((await browser.post(b, `${API}/auth/signout`)).status).toBe(200);
    expect((await browser.get(a, `${API}/user`)).status).toBe(401);
  });

  it('counts a rate limit across both instances', async () => {
    const browser = new Browser();
    await browser.prime(a);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await browser.post(i % 2 ? b : a, `${API}/auth/signin`, {
        email: 'nobody.two@example.test',
        password: 'Wrong-Pass-1',
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });

  it('downloads through B a document uploaded through A', async () => {
    const { browser, email } = await signedUp(a, b);
    // The e-sign consent given through B stands for the signatures sent through A.
    const state = (await (await browser.get(b, ESIGN_CONSENT_URL)).json()) as { version: string };
    expect((await browser.post(b, ESIGN_CONSENT_URL, { version: state.version })).status).toBe(201);
    const submitted = await browser.request(a, 'POST', URL_INDIVIDUAL, registration.form(email));
    expect(submitted.status).toBe(201);
    const { registrationId } = (await submitted.json()) as { registrationId: string };

    const staff = await signedUp(b, a);
    await pool.query('update users set is_staff = true where email = $1', [staff.email]);
    const documents = await pool.query<{ id: string; part: string }>(
      'select id, part from registration_documents where registration_id = $1',
      [registrationId],
    );
    const w2 = documents.rows.find((row) => row.part === 'irsFormW2')!;
    const download = await staff.browser.get(b, `/clearing/admin/documents/${w2.id}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(Buffer.from(await download.arrayBuffer()).equals(samplePdf)).toBe(true);
  });

  it('serves a disclosure published once from both, each listing updated by the notification', async () => {
    const listing = async (instance: Instance) =>
      (await fetch(`${instance.base}/clearing/api/web/disclosures`)).json() as Promise<{
        capitalSummary: Array<{ monthlyDisclosureMonth: string }>;
      }>;
    // Both cache the (empty) listing first.
    expect((await listing(a)).capitalSummary).toEqual([]);
    expect((await listing(b)).capitalSummary).toEqual([]);
    const pdf = await makeSampleDisclosurePdf('capital-summary', '2025-03');
    await publishDisclosure(
      pool,
      { dataDir: '/nonexistent' },
      {
        category: 'capital-summary',
        period: '2025-03',
        pdfBytes: pdf,
        publishedBy: 'cli:test',
      },
    );
    for (const instance of [a, b]) {
      let months: string[] = [];
      for (let i = 0; i < 100 && months.length === 0; i++) {
        months = (await listing(instance)).capitalSummary.map((m) => m.monthlyDisclosureMonth);
        if (months.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(months).toEqual(['2025-03']);
      const document = await fetch(
        `${instance.base}/clearing/disclosures/capital-summary/2025-03.pdf`,
      );
      expect(document.status).toBe(200);
      expect(Buffer.from(await document.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
    }
  });

  it("drops B's cached statement when A loads a new one (NOTIFY), so B answers 200, not 304", async () => {
    const staff = await signedUp(a, b);
    await pool.query('update users set is_staff = true where email = $1', [staff.email]);
    const organization = await pool.query<{ id: string }>(
      `insert into organizations (name, clearing_org_id, kind)
       values ('Two Instances LLC', $1, 'business') returning id`,
      [`NCF-T${crypto.randomBytes(4).toString('hex')}`],
    );
    const organizationId = organization.rows[0]!.id;
    await saveStatement(pool, {
      organizationId,
      statement: demoStatement(),
      asOf: '2026-11-20',
      loadedBy: null,
    });
    const path = `${API}/customer/${organizationId}/statement`;
    // B reads it, and keeps it; a reload on B is a 304.
    const first = await staff.browser.get(b, path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    const reload = () => staff.browser.request(b, 'GET', path, undefined, etag);
    expect((await reload()).status).toBe(304);

    const put = await staff.browser.request(
      a,
      'PUT',
      `/exchange/api/admin/statements/${organizationId}`,
      {
        asOf: '2026-11-21',
        statement: demoStatement(),
      },
    );
    expect(put.status).toBe(200);
    let after = await reload();
    for (let i = 0; i < 100 && after.status === 304; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await reload();
    }
    expect(after.status).toBe(200);
    expect(((await after.json()) as { asOf: string }).asOf).toBe('2026-11-21');
    expect(after.headers.get('etag')).not.toBe(etag);
  });

  it('feeds live-panel clients on both instances from the one simulator', async () => {
    const { browser } = await signedUp(a, b);
    const cookie = `${SESSION_COOKIE}=${browser.cookies.get(SESSION_COOKIE)}`;
    const open = (instance: Instance) =>
      new Promise<{ socket: WsClient; trades: MarketServerMessage[] }>((resolve, reject) => {
        const socket = new WebSocket(instance.base.replace('http', 'ws') + MARKET_STREAM_PATH, {
          headers: { cookie },
        });
        const trades: MarketServerMessage[] = [];
        socket.on('message', (data) => {
          const message = JSON.parse(data.toString()) as MarketServerMessage;
          if (message.type === 'trade') trades.push(message);
        });
        socket.on('error', reject);
        socket.on('open', () => {
          socket.send(
            JSON.stringify({ type: 'subscribe', product_codes: ['BTC-FUT'], channels: ['trades'] }),
          );
          resolve({ socket, trades });
        });
      });
    const onA = await open(a);
    const onB = await open(b);
    // Wait (bounded) until both have seen a trade the other has seen too.
    const key = (m: MarketServerMessage) => JSON.stringify(m);
    const common = () => onA.trades.map(key).filter((k) => onB.trades.map(key).includes(k));
    for (let i = 0; i < 300 && common().length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The same trades (symbol, price, quantity, time, ack id) on both: one simulator.
    expect(common().length).toBeGreaterThan(0);
    onA.socket.close();
    onB.socket.close();
    const leaders = [a, b].filter((instance) => instance.output.includes('market leader'));
    expect(leaders).toHaveLength(1);
  }, 30_000);
});
