/**
 * Starting real portal processes (`src/server/main.ts` compiled, as `npm start` runs it): two at once on one empty database
 * with the demo seed on (one seeds, both serve), and starts that fail, each ending in one
 * sentence and exit code 1, never a stack trace.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { freePort } from '../../src/server/db/embeddedPostgres';
import { DEMO_SIGN_INS } from '../../src/server/seed/demo';
import { withDatabase } from './globalSetup';
import { compiledEntry } from '../compiled';

/** A stack trace's frame line, as Node prints it. */
const STACK_FRAME = /^\s+at .+/m;

interface Started {
  output: string;
  /** Null while it runs (it started); the exit code once it ended. */
  code: number | null;
  port: number;
  stop(): Promise<void>;
}

/** Starts a portal; resolves once it serves, or once it exits (a failed start). */
async function startPortal(env: Record<string, string>): Promise<Started> {
  const port = Number(env.PORT ?? (await freePort()));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-start-'));
  const child = spawn(process.execPath, [compiledEntry('src/server/main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PASSWORD_COST: '10',
      WEB_DIR: '/nonexistent',
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started: Started = {
    output: '',
    code: null,
    port,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
  await new Promise<void>((resolve) => {
    const onData = (chunk: Buffer) => {
      started.output += chunk.toString();
      if (started.output.includes('Clearing member portal:')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      started.code = code;
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve();
    });
  });
  return started;
}

let adminUrl: string;
const databases: string[] = [];

async function emptyDatabase(): Promise<string> {
  const name = `portal_start_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  databases.push(name);
  return withDatabase(adminUrl, name);
}

beforeAll(() => {
  adminUrl = inject('adminDatabaseUrl');
});

afterAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}, 60_000);

describe('starting the portal', () => {
  it('two instances started together on one empty database: one seeds, both serve', async () => {
    const url = await emptyDatabase();
    const [a, b] = await Promise.all([
      startPortal({ DATABASE_URL: url }),
      startPortal({ DATABASE_URL: url }),
    ]);
    try {
      for (const instance of [a, b]) {
        expect(instance.code, instance.output).toBeNull();
        expect(instance.output).not.toContain('duplicate key');
        expect(instance.output).not.toMatch(STACK_FRAME);
        const ready = await fetch(`http://127.0.0.1:${instance.port}/readyz`);
        expect(ready.status).toBe(200);
      }
      expect([a, b].filter((i) => i.output.includes('Demo sign-ins (just seeded)'))).toHaveLength(
        1,
      );
      const pool = new pg.Pool({ connectionString: url });
      try {
        const users = await pool.query<{ email: string }>('select email from users order by email');
        expect(users.rows.map((row) => row.email)).toEqual(
          DEMO_SIGN_INS.map((demo) => demo.email).sort(),
        );
        const disclosures = await pool.query<{ n: number }>(
          `select count(*)::int as n from disclosure_documents where published_by = 'seed'`,
        );
        const perPeriod = await pool.query<{ n: number }>(
          `select count(*)::int as n from (select category, period from disclosure_documents
             group by category, period having count(*) > 1) twice`,
        );
        expect(disclosures.rows[0]!.n).toBeGreaterThan(0);
        expect(perPeriod.rows[0]!.n).toBe(0);
      } finally {
        await pool.end();
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 120_000);

  it('a port already in use: one sentence saying so, exit code 1, no stack trace', async () => {
    const url = await emptyDatabase();
    const blocker = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const started = await startPortal({ DATABASE_URL: url, PORT: String(port), SEED_DEMO: '0' });
      expect(started.code).toBe(1);
      expect(started.output).toContain(
        `The portal could not start: port ${port} on 127.0.0.1 is already in use. Stop the program using it, or set PORT to a free port.`,
      );
      expect(started.output).not.toMatch(STACK_FRAME);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 60_000);

  it('a demo seed the database refuses: one sentence, exit code 1, no stack trace, nothing half-seeded', async () => {
    // A database migrated by an earlier start without the seed, whose organizations table then
    // refuses every new row (as a full disk, a revoked grant or a hand-made constraint would):
    // the seed's first insert fails inside its transaction.
    const url = await emptyDatabase();
    const migrated = await startPortal({ DATABASE_URL: url, SEED_DEMO: '0' });
    expect(migrated.code, migrated.output).toBeNull();
    await migrated.stop();
    const pool = new pg.Pool({ connectionString: url });
    try {
      await pool.query(
        'alter table organizations add constraint no_new_organizations check (false) not valid',
      );
      const started = await startPortal({ DATABASE_URL: url });
      expect(started.code, started.output).toBe(1);
      const sentences = started.output
        .split('\n')
        .filter((line) => line.startsWith('The demo data could not be seeded'));
      // PostgreSQL's own words (in English: new row for relation "organizations" violates check
      // constraint "no_new_organizations"), on one line; the constraint's name in any language.
      expect(sentences).toHaveLength(1);
      expect(sentences[0]).toMatch(/^The demo data could not be seeded: .*"no_new_organizations"$/);
      expect(started.output).not.toMatch(STACK_FRAME);
      expect(started.output).not.toContain('Clearing member portal:');
      // The seed's transaction rolled back whole: no user without its organization.
      const users = await pool.query<{ n: number }>('select count(*)::int as n from users');
      expect(users.rows[0]!.n).toBe(0);
    } finally {
      await pool.end();
    }
  }, 90_000);

  it('a database that cannot be reached, and a bad setting: a sentence each, no stack trace', async () => {
    const closedPort = await freePort();
    const noDatabase = await startPortal({
      DATABASE_URL: `postgres://nobody:secret@127.0.0.1:${closedPort}/portal`,
    });
    expect(noDatabase.code).toBe(1);
    expect(noDatabase.output).toMatch(/^The database could not be opened: .*ECONNREFUSED/m);
    expect(noDatabase.output).not.toMatch(STACK_FRAME);

    const url = await emptyDatabase();
    const badSetting = await startPortal({
      DATABASE_URL: url,
      SEED_DEMO: '0',
      METRICS_ALLOW: 'localhost',
    });
    expect(badSetting.code).toBe(1);
    expect(badSetting.output).toContain(
      'The portal could not start: METRICS_ALLOW: "localhost" is not an IP address or a CIDR range.',
    );
    expect(badSetting.output).not.toMatch(STACK_FRAME);

    const badInterval = await startPortal({
      DATABASE_URL: url,
      SEED_DEMO: '0',
      WEBHOOK_POLL_MS: 'soon',
    });
    expect(badInterval.code).toBe(1);
    expect(badInterval.output).toContain(
      'The portal could not start: WEBHOOK_POLL_MS must be a positive number (it is NaN).',
    );
    expect(badInterval.output).not.toMatch(STACK_FRAME);
  }, 60_000);
});
