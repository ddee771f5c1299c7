/**
 * The audit trail (ASVS 16.3, 16.4.2; CFTC 1.31): one hash chain in PostgreSQL, appended by the
 * database for every event, refused any change, checked by `npm run admin -- verify-audit`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailDigest, recordAuditEvent } from '../../src/server/audit/recordAuditEvent';
import { newFieldKey, parseFieldKeys } from '../../src/server/fieldEncryption/keyRing';
import { verifyAuditChain } from '../../src/server/audit/verifyAuditChain';
import { unkeyedHashSql } from './auditTamper';
import { bindAuditChainKeys } from '../../src/server/audit/auditChainKeys';
import { grantAppRole } from '../../src/server/db/appRole';
import { createPool } from '../../src/server/db/database';
import { migrate } from '../../src/server/db/migrate';
import {
  postForm as postConsoleForm,
  registeredBusiness,
  registeredCustomer,
  signedInStaff,
} from './adminHelpers';
import { enableTwoFactor, freshClient, lastLink, postForm, signedIn } from './authHelpers';
import { runCli, type CliRun } from './cliRun';
import { createTestApp, type TestApp } from './testApp';

const API = '/exchange/api/web';
const C = '/clearing/admin';

describe('audit trail', () => {
  let t: TestApp;
  let tmp: string;

  /** `npm run admin -- <args>` against this test's database. */
  const admin = (args: string[]): Promise<CliRun> =>
    runCli('src/cli/admin.ts', args, {
      DATABASE_URL: t.pool.options.connectionString,
      DATA_DIR: tmp,
      NODE_ENV: 'test',
      // The app's keys: the CLI finds failed sign-ins by the digests made under them.
      FIELD_ENCRYPTION_KEYS: t.config.fieldEncryptionKeys!,
      AUDIT_CHAIN_KEYS: t.config.auditChainKeys!,
    });

  /** Every audit row's full text, for checks that nothing personal is in it. */
  const allRowsText = async () =>
    (await t.pool.query<{ text: string }>('select a::text as text from audit_log a')).rows
      .map((row) => row.text)
      .join('\n');

  beforeAll(async () => {
    t = await createTestApp();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-audit-test-'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('appends a row for each kind of event, ids only, one chain that verify-audit accepts', async () => {
    // Sign-ins: success, a wrong password, an email without an account.
    const customer = await registeredCustomer(t);
    const anon = freshClient(t.app);
    const wrong = await anon.post(`${API}/auth/signin`, {
      email: customer.email,
      password: 'Not-The-Pass-1',
    });
    expect(wrong.statusCode).toBe(401);
    const stranger = `Nobody.${crypto.randomBytes(3).toString('hex')}@Example.test`;
    expect(
      (await anon.post(`${API}/auth/signin`, { email: stranger, password: 'Whatever-1' }))
        .statusCode,
    ).toBe(401);

    // Two-factor and password changes.
    const other = await signedIn(t);
    await enableTwoFactor(other.client);
    await anon.post(`${API}/auth/password/reset/request`, {
      email: other.email,
      authOrigin: 'Clearing',
    });
    const link = lastLink(t, other.email, 'reset-password');
    const reset = await anon.post(`${API}/auth/password/reset`, {
      token: link.searchParams.get('access_token'),
      userId: link.searchParams.get('user_id'),
      password: 'Brand-New-Pass-9',
    });
    expect(reset.statusCode).toBe(200);

    // Staff: view, reveal, download, request changes in the console, approve (another) through
    // the API.
    const staff = await signedInStaff(t);
    const page = `${C}/registrations/${customer.registrationId}`;
    expect((await staff.client.get(page)).statusCode).toBe(200);
    const reveal = await postConsoleForm(staff.client, `${page}/reveal`, {
      field: '/socialSecurityNumber',
    });
    expect(reveal.statusCode).toBe(200);
    const document = await t.pool.query<{ id: string }>(
      `select id from registration_documents where registration_id = $1 and part = 'irsFormW2'`,
      [customer.registrationId],
    );
    const documentId = document.rows[0]!.id;
    expect((await staff.client.get(`${C}/documents/${documentId}`)).statusCode).toBe(200);
    const changes = await postConsoleForm(staff.client, `${page}/changes`, {
      note: 'Please upload a sharper photo of your ID.',
    });
    expect(changes.statusCode).toBe(303);
    // Another registration approved: one waiting for changes takes no decision (issue 39 §5).
    const approved = await registeredCustomer(t);
    const approve = await staff.client.post('/exchange/api/admin/onboarding/kyc-approval', {
      registrationId: approved.registrationId,
      approved: true,
    });
    expect(approve.statusCode).toBe(200);

    // A rejection from the operator's command line.
    const rejected = await registeredCustomer(t);
    const reject = await admin(['reject', rejected.email, 'We could not verify your identity.']);
    expect(reject.code, reject.stderr).toBe(0);

    // A role change by an organisation's Administrator.
    const business = await registeredBusiness(t);
    const roles = await postForm(business.client, `${API}/user/settings`, [
      { name: 'tag', value: 'set_roles' },
      { name: 'user_id', value: business.id },
      { name: 'role', value: 'Administrator' },
      { name: 'role', value: 'Trader' },
    ]);
    expect(roles.statusCode).toBe(200);

    const rows = (
      await t.pool.query<{
        seq: string;
        action: string;
        actor_user_id: string | null;
        subject: string | null;
        registration_id: string | null;
        detail: Record<string, unknown>;
      }>(
        'select seq, action, actor_user_id, subject, registration_id, detail from audit_log order by seq',
      )
    ).rows;
    const find = (action: string, match: (row: (typeof rows)[number]) => boolean = () => true) =>
      rows.find((row) => row.action === action && match(row));
    expect(find('signin', (r) => r.actor_user_id === customer.id)).toBeDefined();
    expect(find('signin.failed', (r) => r.actor_user_id === customer.id)?.detail).toEqual({
      reason: 'password',
      // The account's consecutive failures (issue 39 §4, per-account limit).
      failures: 1,
    });
    // An email without an account: its keyed digest (HMAC under a key derived from the field
    // encryption key, whose id is beside it), never the address nor its plain SHA-256, which
    // hashing guessed addresses would reverse.
    const ring = parseFieldKeys(t.config.fieldEncryptionKeys!);
    expect(find('signin.failed', (r) => r.actor_user_id === null)?.detail).toEqual({
      reason: 'unknown-email',
      // Counted as an account's would be, so the answers reveal nothing (issue 39 §4).
      failures: 1,
      ...emailDigest(ring, stranger),
    });
    expect(emailDigest(ring, stranger)).toEqual(emailDigest(ring, ` ${stranger.toLowerCase()} `));
    expect(emailDigest(ring, stranger).digestKey).toBe(ring.current.id);
    const unkeyed = crypto.createHash('sha256').update(stranger.toLowerCase()).digest('hex');
    expect(await allRowsText()).not.toContain(unkeyed);
    const otherKey = parseFieldKeys(newFieldKey(ring.current.id));
    expect(emailDigest(otherKey, stranger).emailDigest).not.toBe(
      emailDigest(ring, stranger).emailDigest,
    );
    expect(find('2fa.enrolment-started', (r) => r.actor_user_id === other.id)).toBeDefined();
    expect(find('2fa.enabled', (r) => r.actor_user_id === other.id)).toBeDefined();
    expect(find('password.reset', (r) => r.actor_user_id === other.id)).toBeDefined();
    const ofRegistration = (action: string) =>
      find(action, (r) => r.registration_id === customer.registrationId);
    expect(ofRegistration('registration.submitted')?.actor_user_id).toBe(customer.id);
    expect(ofRegistration('registration.viewed')?.actor_user_id).toBe(staff.id);
    expect(ofRegistration('registration.revealed')).toMatchObject({
      actor_user_id: staff.id,
      subject: customer.id,
      detail: { field: '/socialSecurityNumber' },
    });
    expect(ofRegistration('registration.document-downloaded')?.detail).toEqual({ documentId });
    expect(ofRegistration('registration.changes-requested')?.detail).toEqual({ via: 'console' });
    expect(
      find('registration.approved', (r) => r.registration_id === approved.registrationId),
    ).toMatchObject({
      actor_user_id: staff.id,
      detail: { via: 'api' },
    });
    expect(
      find('registration.rejected', (r) => r.registration_id === rejected.registrationId),
    ).toMatchObject({ actor_user_id: null, subject: rejected.id, detail: { via: 'cli' } });
    expect(find('settings.set_roles', (r) => r.subject === business.id)?.detail).toEqual({
      roles: ['Administrator', 'Trader'],
    });
    // The chain: numbered without gaps, each row linked to the one before.
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_row, i) => i + 1));

    // Nothing personal beyond ids: no email, name, SSN or date of birth in any row.
    const text = await allRowsText();
    for (const secret of [
      customer.email,
      stranger,
      stranger.toLowerCase(),
      other.email,
      business.email,
      String(customer.answers.firstName),
      String(customer.answers.socialSecurityNumber),
      String(customer.answers.dateOfBirth),
    ]) {
      expect(text).not.toContain(secret);
    }

    const report = await verifyAuditChain(t.pool);
    expect(report).toMatchObject({ intact: true, rows: rows.length, unkeyed: 0 });
    const verified = await admin(['verify-audit']);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(`Audit trail intact: ${rows.length} rows`);
  });

  it('audit-lookup lists the failed sign-ins on an address, with or without an account', async () => {
    const anon = freshClient(t.app);
    const stranger = `lookup.${crypto.randomBytes(3).toString('hex')}@example.test`;
    for (const email of [stranger, ` ${stranger.toUpperCase()} `]) {
      const attempt = await anon.post(`${API}/auth/signin`, { email, password: 'Whatever-1' });
      expect(attempt.statusCode).toBe(401);
    }
    // A row written before digests were keyed (plain SHA-256) is still found.
    await recordAuditEvent(t.pool, {
      action: 'signin.failed',
      actorUserId: null,
      detail: {
        reason: 'unknown-email',
        emailDigest: crypto.createHash('sha256').update(stranger).digest('hex'),
      },
    });
    const customer = await registeredCustomer(t);
    const wrong = await anon.post(`${API}/auth/signin`, {
      email: customer.email,
      password: 'Not-The-Pass-1',
    });
    expect(wrong.statusCode).toBe(401);

    const ofStranger = await admin(['audit-lookup', stranger]);
    expect(ofStranger.code, ofStranger.stderr).toBe(0);
    expect(ofStranger.stdout).toContain(
      `3 failed sign-ins for ${stranger} (no account has this address):`,
    );
    expect(ofStranger.stdout.match(/^ {2}row \d+ {2}\S+ {2}unknown-email$/gm)).toHaveLength(3);

    const ofCustomer = await admin(['audit-lookup', customer.email]);
    expect(ofCustomer.stdout).toContain(`1 failed sign-in for ${customer.email}:`);
    expect(ofCustomer.stdout).toMatch(/^ {2}row \d+ {2}\S+ {2}password$/m);

    const nobody = await admin(['audit-lookup', 'never.tried@example.test']);
    expect(nobody.code).toBe(0);
    expect(nobody.stdout).toContain('No failed sign-in is recorded for never.tried@example.test.');
  });

  it("shows a registration's audit events on its console page", async () => {
    const customer = await registeredCustomer(t);
    const staff = await signedInStaff(t);
    const page = `${C}/registrations/${customer.registrationId}`;
    await postConsoleForm(staff.client, `${page}/reveal`, { field: '/socialSecurityNumber' });
    const body = (await staff.client.get(page)).body;
    const trail = body.slice(body.indexOf('Audit trail'));
    expect(trail).toContain('Submitted');
    expect(trail).toContain('Revealed a sensitive answer');
    expect(trail).toContain('Social Security number');
    expect(trail).toContain('Viewed in the console');
    expect(trail).toContain(staff.email);
    expect(trail).toContain('the applicant');
    // Another registration's events stay on its own page.
    const someoneElse = await registeredCustomer(t);
    const otherPage = (await staff.client.get(`${C}/registrations/${someoneElse.registrationId}`))
      .body;
    const otherTrail = otherPage.slice(otherPage.indexOf('Audit trail'));
    expect(otherTrail).not.toContain('Revealed a sensitive answer');
  });

  it('refuses UPDATE, DELETE and TRUNCATE, even to the owner', async () => {
    await recordAuditEvent(t.pool, { action: 'signout', actorUserId: null });
    for (const statement of [
      `update audit_log set action = 'signin' where seq = 1`,
      'delete from audit_log where seq = 1',
      'truncate audit_log',
      'delete from audit_chain_head',
    ]) {
      await expect(t.pool.query(statement), statement).rejects.toThrow(/append-only/);
    }
    // A row without the chain's key is refused, and so is a keyed row that does not continue
    // the head (its number or its link): the chain never forks.
    await expect(
      t.pool.query(
        `insert into audit_log (action, detail, seq, prev_hash, hash) values ('signout', '{}', 1, 'x', 'y')`,
      ),
    ).rejects.toThrow(/keyed/);
    await expect(
      t.pool.query(
        `insert into audit_log (action, detail, seq, prev_hash, hash, chain_version, chain_key)
         select 'signout', '{}', last_seq + 1, 'x', 'y', 2, 'test-audit' from audit_chain_head`,
      ),
    ).rejects.toThrow(/does not continue the chain/);
    expect((await verifyAuditChain(t.pool)).intact).toBe(true);
  });

  it('gives the app role of an external PostgreSQL read and append only', async () => {
    const role = `portal_app_${crypto.randomBytes(4).toString('hex')}`;
    const password = crypto.randomBytes(12).toString('hex');
    await t.pool.query(`create role ${role} login password '${password}'`);
    try {
      const database = (await t.pool.query<{ db: string }>('select current_database() as db'))
        .rows[0]!.db;
      await t.pool.query(`grant connect on database ${database} to ${role}`);
      await grantAppRole(t.pool, role);
      const url = new URL(t.pool.options.connectionString!);
      url.username = role;
      url.password = password;
      const app = createPool(url.toString());
      bindAuditChainKeys(app, parseFieldKeys(t.config.auditChainKeys!));
      try {
        // The portal's start as this role: every migration applied, nothing to create.
        expect(await migrate(app)).toEqual([]);
        await recordAuditEvent(app, { action: 'signout', actorUserId: null });
        expect((await app.query('select count(*)::int as n from audit_log')).rows[0].n).toBe(
          Number((await app.query('select max(seq) as n from audit_log')).rows[0].n),
        );
        for (const statement of [
          `update audit_log set action = 'signin'`,
          'delete from audit_log',
          'truncate audit_log',
          'alter table audit_log disable trigger audit_log_no_update_or_delete',
        ]) {
          await expect(app.query(statement), statement).rejects.toMatchObject({
            code: expect.stringMatching(/^42501$/),
          });
        }
        // The rest of the portal's tables stay writable.
        await app.query(`update users set tutorial_complete = tutorial_complete where false`);
      } finally {
        await app.end();
      }
    } finally {
      await t.pool.query(`drop owned by ${role}`);
      await t.pool.query(`drop role ${role}`);
    }
  });

  it('names the first row that no longer matches after the database is edited around the triggers', async () => {
    for (let i = 0; i < 3; i++) {
      await recordAuditEvent(t.pool, { action: 'signout', actorUserId: null });
    }
    expect((await verifyAuditChain(t.pool)).intact).toBe(true);
    const { rows } = await t.pool.query<{ seq: string; id: string }>(
      'select seq::text, id::text from audit_log a order by a.seq desc limit 1 offset 1',
    );
    const target = rows[0]!;
    // A superuser edits a row with the guard switched off.
    const tamper = async (sql: string) => {
      await t.pool.query('alter table audit_log disable trigger audit_log_no_update_or_delete');
      try {
        await t.pool.query(sql, [target.seq]);
      } finally {
        await t.pool.query('alter table audit_log enable trigger audit_log_no_update_or_delete');
      }
    };
    await tamper(`update audit_log set action = 'signin' where seq = $1`);
    expect(await verifyAuditChain(t.pool)).toMatchObject({
      intact: false,
      seq: Number(target.seq),
      id: target.id,
      problem: expect.stringContaining('no longer matches its hash'),
    });
    const failed = await admin(['verify-audit']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`Audit trail altered at row ${target.seq} (id ${target.id})`);
    expect(failed.stderr).not.toMatch(/\n\s+at /);

    // Recomputing that row's hash without the chain's key does not mend it (issue 27).
    await tamper(
      `update audit_log set hash = ${unkeyedHashSql('prev_hash', 'audit_log')} where seq = $1`,
    );
    expect(await verifyAuditChain(t.pool)).toMatchObject({
      intact: false,
      seq: Number(target.seq),
      problem: expect.stringContaining('no longer matches its hash'),
    });

    // A row removed from the middle is named by the gap.
    await tamper('delete from audit_log where seq = $1');
    expect(await verifyAuditChain(t.pool)).toMatchObject({
      intact: false,
      seq: Number(target.seq) + 1,
      problem: `row ${target.seq} is missing (the next row is ${Number(target.seq) + 1})`,
    });
  });

  it('keeps one chain when two instances append at once', async () => {
    const second = createPool(t.pool.options.connectionString!);
    bindAuditChainKeys(second, parseFieldKeys(t.config.auditChainKeys!));
    try {
      await Promise.all(
        Array.from({ length: 40 }, (_unused, i) =>
          recordAuditEvent(i % 2 ? second : t.pool, {
            action: 'signout',
            actorUserId: null,
            detail: { n: i },
          }),
        ),
      );
    } finally {
      await second.end();
    }
    // The earlier test left the chain broken on purpose; this one checks the rows it added.
    const { rows } = await t.pool.query<{ seq: string; prev_hash: string; hash: string }>(
      `select seq::text, prev_hash, hash from audit_log
        where action = 'signout' and detail ? 'n' order by audit_log.seq`,
    );
    expect(rows).toHaveLength(40);
    for (let i = 1; i < rows.length; i++) {
      expect(Number(rows[i]!.seq)).toBe(Number(rows[i - 1]!.seq) + 1);
      expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
    }
  });
});
