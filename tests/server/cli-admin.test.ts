import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runningEmbeddedServer } from '../../src/cli/admin/openPortalDatabase';
import { demoStatement } from '../../src/server/seed/demoReview';
import { freshClient, uniqueEmail } from './authHelpers';
import { auditRows, registeredCustomer } from './adminHelpers';
import { runCli, type CliRun } from './cliRun';
import { emailDigest } from '../../src/server/audit/recordAuditEvent';
import { parseFieldKeys } from '../../src/server/fieldEncryption/keyRing';
import { createTestApp, type TestApp } from './testApp';

describe('npm run admin', () => {
  let t: TestApp;
  let tmp: string;

  const run = (args: string[], stdin = ''): Promise<CliRun> =>
    runCli(
      'src/cli/admin.ts',
      args,
      {
        DATABASE_URL: t.pool.options.connectionString,
        DATA_DIR: tmp,
        PASSWORD_COST: '10',
        PUBLIC_URL: 'http://portal.test',
        NODE_ENV: 'test',
        // The portal's keys: a change request opens the registration's sealed answers.
        FIELD_ENCRYPTION_KEYS: t.config.fieldEncryptionKeys,
        AUDIT_CHAIN_KEYS: t.config.auditChainKeys,
      },
      stdin,
    );

  beforeAll(async () => {
    t = await createTestApp();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cli-test-'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('request-changes and reject tell the applicant (email printed without SMTP_URL)', async () => {
    const customer = await registeredCustomer(t);
    const note = 'Send a sharper photo of your ID.';
    const asked = await run(['request-changes', customer.email, note]);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain(`Asked ${customer.email} for changes`);
    expect(asked.stdout).toContain(`mail to ${customer.email}`);
    // The email says changes were requested and links home; the note is read there.
    expect(asked.stdout).toMatch(/needs changes/);
    let me = (await customer.client.get('/exchange/api/web/user')).json();
    expect(me.review).toEqual({ status: 'changes_requested', reason: note });
    expect((await run(['request-changes', customer.email, note])).code).toBe(1);
    // A registration waiting for changes the applicant never sends can still be rejected.
    const reason = 'Identity could not be verified.';
    const rejected = await run(['reject', customer.email, reason]);
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toContain(reason);
    me = (await customer.client.get('/exchange/api/web/user')).json();
    expect(me.review).toEqual({ status: 'rejected', reason });
    expect((await auditRows(t, 'registration.rejected')).at(-1)).toMatchObject({
      actor_user_id: null,
      detail: { via: 'cli' },
    });
  });

  it('approve <email> approves the pending registration, audited as the CLI', async () => {
    const customer = await registeredCustomer(t);
    const result = await run(['approve', customer.email]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Approved ${customer.email}`);
    const me = await customer.client.get('/exchange/api/web/user');
    expect(me.json().details.approved).toBe(true);
    expect((await auditRows(t, 'registration.approved')).at(-1)).toMatchObject({
      actor_user_id: null,
      subject: customer.id,
      registration_id: customer.registrationId,
      detail: { via: 'cli' },
    });
    const again = await run(['approve', customer.email]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already approved');
    const unknown = await run(['approve', 'nobody@example.test']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user has the email nobody@example.test.');
  });

  it('load-statement loads a statement file by clearing id; the customer then reads it', async () => {
    const customer = await registeredCustomer(t);
    await t.pool.query(
      `update users set details = jsonb_set(details, '{approved}', 'true') where id = $1`,
      [customer.id],
    );
    const clearing = await t.pool.query('select clearing_org_id from organizations where id = $1', [
      customer.organizationId,
    ]);
    const file = path.join(tmp, 'statement.json');
    fs.writeFileSync(file, JSON.stringify(demoStatement()));
    const result = await run([
      'load-statement',
      clearing.rows[0].clearing_org_id,
      file,
      '--as-of',
      '2026-11-20',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('as of 2026-11-20');
    const statement = await customer.client.get(
      `/exchange/api/web/customer/${customer.organizationId}/statement`,
    );
    expect(statement.statusCode).toBe(200);
    expect(statement.json().asOf).toBe('2026-11-20');
    expect((await auditRows(t, 'statement.loaded')).at(-1)?.detail).toMatchObject({ via: 'cli' });
  });

  it('load-statement refuses an invalid statement, listing the problems', async () => {
    const customer = await registeredCustomer(t);
    const bad = structuredClone(demoStatement()) as unknown as Record<string, unknown>;
    delete bad.trades;
    const file = path.join(tmp, 'bad.json');
    fs.writeFileSync(file, JSON.stringify(bad));
    const result = await run(['load-statement', customer.organizationId, file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not valid');
    expect(result.stderr).toContain('trades is missing');
    fs.writeFileSync(file, '{ not json');
    expect((await run(['load-statement', customer.organizationId, file])).code).toBe(2);
    expect((await run(['load-statement', 'NCF-NONE', file])).code).toBe(1);
  });

  it('create-staff with a password from stdin makes a staff user who can sign in', async () => {
    const email = uniqueEmail('staff');
    const result = await run(['create-staff', email, '--password-stdin'], 'Staff-Pass-2026!\n');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const client = freshClient(t.app);
    const signin = await client.post('/exchange/api/web/auth/signin', {
      email,
      password: 'Staff-Pass-2026!',
    });
    expect(signin.statusCode).toBe(200);
    expect(signin.json().user.isNorthstarClearingStaff).toBe(true);
    expect((await client.get('/clearing/admin')).statusCode).toBe(200);
    const weak = await run(['create-staff', uniqueEmail('staff'), '--password-stdin'], 'short\n');
    expect(weak.code).toBe(2);
    const twice = await run(['create-staff', email, '--password-stdin'], 'Staff-Pass-2026!\n');
    expect(twice.code).toBe(1);
  });

  it('create-staff without a password prints a one-time link that sets it', async () => {
    const email = uniqueEmail('staff');
    const result = await run(['create-staff', email]);
    expect(result.code).toBe(0);
    const link = new URL(result.stdout.match(/http:\/\/portal\.test\S+/)![0]);
    expect(link.pathname).toBe('/clearing/user/verify-email');
    const client = freshClient(t.app);
    const verify = await client.post('/exchange/api/web/auth/verify-email', {
      token: link.searchParams.get('access_token'),
      email,
      password: 'Staff-Pass-2026!',
    });
    expect(verify.statusCode).toBe(200);
    const row = await t.pool.query('select is_staff from users where email = $1', [email]);
    expect(row.rows[0].is_staff).toBe(true);
  });

  it('publish-disclosure publishes a PDF through the disclosures module', async () => {
    const file = path.join(tmp, 'doc.pdf');
    fs.writeFileSync(file, fs.readFileSync('assets/pdfs/terms-of-service.pdf'));
    const result = await run(['publish-disclosure', 'monthly-segregation', '2026-10', file]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Published monthly-segregation 2026-10');
    const listing = await freshClient(t.app).get('/clearing/api/web/disclosures');
    expect(JSON.stringify(listing.json())).toContain('2026-10');
    const wrong = await run(['publish-disclosure', 'no-such-category', '2026-10', file]);
    expect(wrong.code).toBe(1);
    fs.writeFileSync(file, 'not a pdf');
    expect((await run(['publish-disclosure', 'monthly-segregation', '2026-09', file])).code).toBe(
      1,
    );
  });

  it('audit-lookup and verify-audit are audited: who ran them, the address only as its digest', async () => {
    // Issue 27 §5: looking a person up is recorded, naming the operator and the address as failed
    // sign-ins name one (its keyed digest under the field key), never the address itself.
    const email = uniqueEmail('looked-up');
    const lookup = await run(['audit-lookup', email]);
    expect(lookup.code, lookup.stderr).toBe(0);
    const ring = parseFieldKeys(t.config.fieldEncryptionKeys!);
    const operator = `${process.env.SUDO_USER || os.userInfo().username}@${os.hostname()}`;
    expect((await auditRows(t, 'audit.looked-up')).at(-1)).toMatchObject({
      actor_user_id: null,
      detail: { via: 'cli', operator, ...emailDigest(ring, email) },
    });
    const text = await t.pool.query<{ text: string }>(
      `select string_agg(a::text, ' ') as text from audit_log a where action = 'audit.looked-up'`,
    );
    expect(text.rows[0]!.text).not.toContain(email);

    const verified = await run(['verify-audit']);
    expect(verified.code, verified.stderr).toBe(0);
    const rows = Number(/intact: (\d+) rows/.exec(verified.stdout)![1]);
    expect((await auditRows(t, 'audit.verified')).at(-1)).toMatchObject({
      detail: { via: 'cli', operator, intact: true, rows },
    });
  });

  it('answers usage errors with exit code 2', async () => {
    expect((await run(['frobnicate'])).code).toBe(2);
    expect((await run(['approve'])).code).toBe(2);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('load-statement <organization> <file.json>');
  });
});

describe('finding a running portal’s embedded database', () => {
  it('reads the port from postmaster.pid when its process is alive, else null', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-pid-test-'));
    fs.mkdirSync(path.join(dir, 'postgres'));
    const pidFile = path.join(dir, 'postgres', 'postmaster.pid');
    expect(runningEmbeddedServer(dir)).toBeNull();
    fs.writeFileSync(pidFile, `${process.pid}\n${dir}/postgres\n1700000000\n54321\n\n127.0.0.1\n`);
    expect(runningEmbeddedServer(dir)).toEqual({ pid: process.pid, port: 54321 });
    fs.writeFileSync(pidFile, `999999999\n${dir}/postgres\n1700000000\n54321\n`);
    expect(runningEmbeddedServer(dir)).toBeNull();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
