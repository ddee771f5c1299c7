/**
 * Issue 25 §3: one broken form folder does not take the portal down. A real portal process
 * (`src/server/main.ts` compiled, as `npm start` runs it) starts with an extra forms folder (FORMS_DIR) holding a good
 * registration form beside a broken one: it serves, the good forms keep their routes, the broken
 * one is left out and named in the log with `forms check`'s reasons (JSON syntax by line and
 * column), never a stack trace.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { freePort } from '../../src/server/db/embeddedPostgres';
import { loadForms } from '../../src/server/forms';
import { withDatabase } from './globalSetup';
import { compiledEntry } from '../compiled';

const GOOD = 'tests/fixtures/forms-dir/introducing-broker';
let formsDir: string;
let adminUrl: string;
let database: string;

/** A copy of the test folder's form under another id, its schema text changed by `edit`. */
function copyForm(id: string, edit: (schema: string) => string = (schema) => schema) {
  const folder = path.join(formsDir, id);
  fs.mkdirSync(folder, { recursive: true });
  for (const kind of ['schema', 'ui', 'example']) {
    const text = fs.readFileSync(path.join(GOOD, `introducing-broker.${kind}.json`), 'utf8');
    fs.writeFileSync(
      path.join(folder, `${id}.${kind}.json`),
      kind === 'schema' ? edit(text) : text,
    );
  }
}

beforeAll(async () => {
  formsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-dir-'));
  copyForm('introducing-broker');
  // Two commas after a property on line 2: not valid JSON at line 2, column 15.
  copyForm('broken-broker', (schema) => schema.replace(/\n/, '\n  "x-oops": 1,,\n'));
  adminUrl = inject('adminDatabaseUrl');
  database = `portal_forms_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
});

afterAll(async () => {
  fs.rmSync(formsDir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
}, 60_000);

it('loads the good folders and leaves the broken one out with check’s reasons', () => {
  const { forms, unavailable } = loadForms(process.cwd(), formsDir);
  expect([...forms.keys()].sort()).toEqual([
    'affiliated-person',
    'business',
    'individual',
    'introducing-broker',
    'person',
  ]);
  expect([...unavailable.keys()]).toEqual(['broken-broker']);
  expect(unavailable.get('broken-broker')!.join('\n')).toMatch(
    /schemas\/broken-broker\/broken-broker\.schema\.json: not valid JSON at line 2, column 15/,
  );
});

it('a portal with one broken folder beside good ones starts, serves the good ones and names the broken one', async () => {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-forms-'));
  const child = spawn(process.execPath, [compiledEntry('src/server/main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: withDatabase(adminUrl, database),
      PASSWORD_COST: '10',
      WEB_DIR: '/nonexistent',
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      FORMS_DIR: formsDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let code: number | null = null;
  try {
    await new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Clearing member portal:')) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', (exitCode) => {
        code = exitCode;
        resolve();
      });
    });
    expect(code, output).toBeNull();
    expect(output).toContain('The form broken-broker is not available');
    expect(output).toMatch(/broken-broker\.schema\.json: not valid JSON at line 2, column 15/);
    expect(output).not.toMatch(/^\s+at .+/m);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    // The good extra form has its registration route (refused unsigned, not unknown); the
    // broken one has none.
    // The CSRF header and cookie agree (a token the server handed out), so the route decides.
    const primed = await fetch(`http://127.0.0.1:${port}/exchange/api/web/config`);
    const cookie = primed.headers.getSetCookie().find((line) => line.startsWith('csrf_token='))!;
    const token = cookie.split(';')[0]!.slice('csrf_token='.length);
    const post = (formId: string) =>
      fetch(`http://127.0.0.1:${port}/exchange/api/web/registration/${formId}`, {
        method: 'POST',
        headers: { 'x-csrf-token': token, cookie: `csrf_token=${token}` },
      });
    expect((await post('introducing-broker')).status).toBe(401);
    expect((await post('individual')).status).toBe(401);
    expect((await post('broken-broker')).status).toBe(404);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
