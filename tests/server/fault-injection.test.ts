/**
 * Fault injection: the portal's own embedded PostgreSQL is killed (SIGKILL on the postmaster and
 * its backends) at chosen points of a registration. Nothing partial may be stored, nothing
 * committed may be lost, the client gets a clear 503, and the server serves again once the
 * supervisor has restarted the database, without a restart of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { readConfig, type ServerConfig } from '../../src/server/config';
import { openDatabase, type Database } from '../../src/server/db/database';
import { createOutboxMailer } from '../../src/server/mail/mailer';
import { spoolDir } from '../../src/server/storage/uploads';
import { giveEsignConsent, signedIn } from './authHelpers';
import { IndividualRegistration, samplePdf } from './registrationHelpers';
import type { TestApp, TestClient } from './testApp';

type FaultPoint = 'inside' | 'before-commit' | 'after-commit';

let dataDir: string;
let database: Database;
let t: TestApp;
let registration: IndividualRegistration;
let fault: FaultPoint | null = null;
const supervisorLog: string[] = [];

/** SIGKILL on the postmaster and every backend: the machine's database is gone, mid-flight. */
function killDatabase(): void {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  const postmaster = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  const children = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  process.kill(postmaster, 'SIGKILL');
  for (const pid of children) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * The real pool, whose checked-out clients (transactions) kill the database at `fault`. Each
 * client's `query` is wrapped in place, not behind a proxy: the portal keys what it knows about a
 * client by the client itself (the audit chain's keys, audit/auditChainKeys.ts).
 */
function faultyPool(pool: pg.Pool): pg.Pool {
  const wrapped = new WeakSet<pg.PoolClient>();
  const wrapClient = (client: pg.PoolClient): pg.PoolClient => {
    if (wrapped.has(client)) return client;
    wrapped.add(client);
    const query = client.query.bind(client) as (...a: unknown[]) => Promise<unknown>;
    const faultyQuery = async (...args: unknown[]) => {
      const first = args[0];
      const sql = typeof first === 'string' ? first : ((first as { text?: string }).text ?? '');
      if (
        (fault === 'inside' && sql.includes('insert into stored_files')) ||
        (fault === 'before-commit' && sql === 'commit')
      ) {
        fault = null;
        killDatabase();
      }
      const result = await query(...args);
      if (fault === 'after-commit' && sql === 'commit') {
        fault = null;
        killDatabase();
      }
      return result;
    };
    // pg's overloaded query type cannot be named for a wrapper that passes every form through.
    client.query = faultyQuery as unknown as pg.PoolClient['query'];
    return client;
  };
  return new Proxy(pool, {
    get(target, property) {
      if (property === 'connect') return async () => wrapClient(await target.connect());
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

beforeAll(async () => {
  registration = await IndividualRegistration.create();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-fault-test-'));
  fs.chmodSync(dataDir, 0o755);
  database = await openDatabase({ dataDir, log: (line) => supervisorLog.push(line) });
  const config: ServerConfig = {
    ...readConfig({ NODE_ENV: 'test', PASSWORD_COST: '10' }),
    webDir: '/nonexistent',
    dataDir,
  };
  const mailer = createOutboxMailer(() => {});
  const app = await buildApp({ config, pool: faultyPool(database.pool), mailer, logger: false });
  await app.ready();
  t = { app, pool: database.pool, mailer, config, close: async () => {} };
}, 60_000);

afterAll(async () => {
  await t?.app.close(); // closing twice is harmless
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Polls a signed-in read until the portal answers it again (the supervisor restarts the database). */
async function servesAgain(client: TestClient): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const response = await client.get('/exchange/api/web/user');
    if (response.statusCode === 200) return;
    expect(response.statusCode).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the portal did not serve again');
}

async function storedState(userId: string) {
  const registrations = await t.pool.query<{ id: string }>(
    'select id from registrations where user_id = $1',
    [userId],
  );
  const documents = await t.pool.query<{ part: string; bytes: Buffer }>(
    `select d.part, stored_file_bytes(f.storage_name) as bytes from registration_documents d
       join registrations r on r.id = d.registration_id
       left join stored_files f on f.storage_name = d.storage_name
      where r.user_id = $1 order by d.part`,
    [userId],
  );
  const organization = await t.pool.query<{ organization_id: string | null }>(
    'select organization_id from users where id = $1',
    [userId],
  );
  const spool = fs.existsSync(spoolDir(dataDir)) ? fs.readdirSync(spoolDir(dataDir)) : [];
  return {
    registrationId: registrations.rows[0]?.id,
    documents: documents.rows,
    organizationId: organization.rows[0]?.organization_id ?? null,
    spool,
  };
}

function expectUnavailable(response: { statusCode: number; headers: object; json(): unknown }) {
  expect(response.statusCode).toBe(503);
  expect(response.headers).toMatchObject({ 'retry-after': expect.stringMatching(/^\d+$/) });
  expect(response.json()).toEqual({
    errorMessage: expect.stringMatching(/try again/),
    code: 'unavailable',
  });
}

/** Every file of the registration is stored, each with its bytes exactly as uploaded. */
function expectWholeDocuments(documents: Array<{ part: string; bytes: Buffer | null }>) {
  const parts = documents.map((document) => document.part);
  expect(parts).toEqual(expect.arrayContaining(['irsFormW2', 'photoId', 'photoIdBack']));
  expect(parts.length).toBe(registration.fileCount);
  for (const document of documents) {
    expect(document.bytes, document.part).toBeInstanceOf(Buffer);
    const expected = document.part.startsWith('photoId') ? registration.png : samplePdf;
    expect(document.bytes!.equals(expected), document.part).toBe(true);
  }
}

describe('the database killed during a registration', () => {
  it.each(['inside', 'before-commit'] as const)(
    'killed %s the transaction: 503, nothing partial stored, and a retry stores it whole',
    async (point) => {
      const { client, email, id } = await signedIn(t);
      await giveEsignConsent(client); // before the fault: it is meant for the registration
      fault = point;
      const response = await registration.submit(client, email);
      expect(fault).toBeNull(); // the fault fired
      expectUnavailable(response);

      await servesAgain(client);
      const after = await storedState(id);
      expect(after).toEqual({
        registrationId: undefined,
        documents: [],
        organizationId: null,
        spool: [],
      });
      const orphans = await t.pool.query(
        `select count(*)::int as n from stored_files f where not exists
           (select 1 from registration_documents d where d.storage_name = f.storage_name)`,
      );
      expect(orphans.rows[0].n).toBe(0);

      const retry = await registration.submit(client, email);
      expect(retry.statusCode).toBe(201);
      expectWholeDocuments((await storedState(id)).documents);
    },
    60_000,
  );

  it('killed right after the commit: 503, every committed document kept, an identical retry answers 200', async () => {
    const { client, email, id } = await signedIn(t);
    await giveEsignConsent(client); // before the fault: it is meant for the registration
    fault = 'after-commit';
    const response = await registration.submit(client, email);
    expect(fault).toBeNull();
    expectUnavailable(response);

    await servesAgain(client);
    const after = await storedState(id);
    expect(after.registrationId).toBeTruthy();
    expect(after.organizationId).toBeTruthy();
    expect(after.spool).toEqual([]);
    expectWholeDocuments(after.documents);

    const retry = await registration.submit(client, email);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().registrationId).toBe(after.registrationId);
    expect((await storedState(id)).documents).toHaveLength(after.documents.length);
  }, 60_000);

  it('the supervisor restarted the embedded PostgreSQL each time', () => {
    expect(supervisorLog.filter((line) => /restarted/.test(line)).length).toBeGreaterThanOrEqual(3);
  });

  it('shuts down with the database dead, leaving no PostgreSQL process behind', async () => {
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    const postmaster = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    killDatabase();
    // Before the fix, stopping waited for an exit event a dead postmaster never sends again.
    await t.app.close();
    await database.close();
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive(postmaster)).toBe(false);
    expect(supervisorLog.filter((line) => /restarted/.test(line)).length).toBe(3);
  });
});
