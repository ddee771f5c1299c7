/**
 * Issue 27 §4: an audit chain the database's owner cannot quietly rewrite. Rows are keyed with
 * AUDIT_CHAIN_KEYS (never in the database), checkpoints signed with an Ed25519 key outside it pin
 * the head, and rows written before the chain was keyed still verify.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { auditCanonical, bindAuditChainKeys } from '../../src/server/audit/auditChainKeys';
import { auditAtText } from '../../src/server/db/auditLog';
import { recordAuditEvent } from '../../src/server/audit/recordAuditEvent';
import { verifyAuditChain } from '../../src/server/audit/verifyAuditChain';
import { createPool } from '../../src/server/db/database';
import { migrate } from '../../src/server/db/migrate';
import { newFieldKey, parseFieldKeys } from '../../src/server/fieldEncryption/keyRing';
import { runCli, type CliRun } from './cliRun';
import { withDatabase } from './globalSetup';
import { createTestApp, type TestApp } from './testApp';

/** The database owner, around the triggers: what the tester of issue 27 did. */
async function asOwner(pool: pg.Pool, sql: string): Promise<void> {
  await pool.query('alter table audit_log disable trigger audit_log_no_update_or_delete');
  try {
    await pool.query(sql);
  } finally {
    await pool.query('alter table audit_log enable trigger audit_log_no_update_or_delete');
  }
}

/**
 * Rows from `fromSeq` on relinked and rehashed with migration 085's unkeyed formula (the
 * database's own audit_hash and audit_canonical), and the head moved to the new last hash.
 */
const REHASH_UNKEYED = (fromSeq: number, extra = '') => `
  do $$
  declare
    entry record;
    previous text;
  begin
    select hash into previous from audit_log where seq = ${fromSeq - 1};
    previous := coalesce(previous, repeat('0', 64));
    for entry in select seq from audit_log where seq >= ${fromSeq} order by seq loop
      update audit_log set prev_hash = previous ${extra},
                           hash = audit_hash(previous, audit_canonical(audit_log))
       where seq = entry.seq returning hash into previous;
    end loop;
    update audit_chain_head set last_hash = previous;
  end
  $$`;

describe('audit chain keyed outside the database', () => {
  let t: TestApp;
  let tmp: string;

  const admin = (args: string[], env: Record<string, string> = {}): Promise<CliRun> =>
    runCli('src/cli/admin.ts', args, {
      DATABASE_URL: t.pool.options.connectionString,
      DATA_DIR: tmp,
      NODE_ENV: 'test',
      FIELD_ENCRYPTION_KEYS: t.config.fieldEncryptionKeys!,
      AUDIT_CHAIN_KEYS: t.config.auditChainKeys!,
      ...env,
    });

  const append = async (count: number) => {
    for (let i = 0; i < count; i++) {
      await recordAuditEvent(t.pool, {
        action: 'signout',
        actorUserId: null,
        detail: { n: i, note: 'a "quoted" \\ value\n' },
      });
    }
  };

  /** Signs a checkpoint with the CLI and keeps it in a file, as an operator would. */
  const checkpoint = async (name: string): Promise<string> => {
    const taken = await admin(['audit-checkpoint']);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toContain('signed');
    const file = path.join(tmp, name);
    fs.writeFileSync(file, `> portal admin\n${taken.stdout}`);
    return file;
  };

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-audit-keyed-'));
  });
  afterAll(async () => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  describe('the rewrite of issue 27', () => {
    beforeAll(async () => {
      t = await createTestApp();
      await append(120);
    });
    afterAll(async () => t.close());

    it('is caught: row 16 changed, every later hash recomputed unkeyed, the head updated', async () => {
      expect(await verifyAuditChain(t.pool)).toMatchObject({ intact: true, rows: 120 });
      // Rows carry their version and key; the database holds no key.
      const marked = await t.pool.query<{ chain_version: number; chain_key: string }>(
        'select distinct chain_version, chain_key from audit_log',
      );
      expect(marked.rows).toEqual([{ chain_version: 2, chain_key: 'test-audit' }]);

      await asOwner(t.pool, `update audit_log set detail = '{"n": 999}' where seq = 16`);
      await asOwner(t.pool, REHASH_UNKEYED(16));
      expect(await verifyAuditChain(t.pool)).toMatchObject({
        intact: false,
        seq: 16,
        problem: expect.stringContaining('no longer matches its hash'),
      });
      const cli = await admin(['verify-audit']);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain('Audit trail altered at row 16');
      expect(cli.stdout).not.toContain('Audit trail intact');

      // Marking the rewritten rows as written before the chain was keyed does not help.
      await asOwner(t.pool, REHASH_UNKEYED(16, ', chain_version = 1, chain_key = null'));
      expect(await verifyAuditChain(t.pool)).toMatchObject({
        intact: false,
        seq: 16,
        problem: expect.stringContaining('unkeyed after keyed rows'),
      });
    });
  });

  describe('checkpoints', () => {
    beforeAll(async () => {
      t = await createTestApp();
      await append(30);
    });
    afterAll(async () => t.close());

    it('prove every row up to them unchanged, and catch a tail cut after one', async () => {
      const file = await checkpoint('checkpoint-1.json');
      const signed = JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[1]!) as {
        seq: number;
        hash: string;
      };
      expect(signed.seq).toBe(30);
      const good = await admin(['verify-audit', '--checkpoint', file]);
      expect(good.code, good.stderr).toBe(0);
      expect(good.stdout).toContain(`Every row up to row 30 is as the checkpoint`);

      // Rows after it (the checkpoint's own audit row, the verification's, new events) are fine.
      await append(3);
      expect((await admin(['verify-audit', '--checkpoint', file])).code).toBe(0);

      // The owner cuts the tail back to row 27 and moves the head to it: the chain alone cannot
      // tell (it is a valid, shorter chain), the checkpoint can.
      await asOwner(t.pool, 'delete from audit_log where seq > 27');
      await t.pool.query(
        `update audit_chain_head set last_seq = 27,
                last_hash = (select hash from audit_log where seq = 27)`,
      );
      expect((await verifyAuditChain(t.pool)).intact).toBe(true);
      const cut = await admin(['verify-audit', '--checkpoint', file]);
      expect(cut.code).toBe(1);
      expect(cut.stderr).toContain('rows 28 to 30 are missing from the end');
    });

    it('catch the whole chain rewritten without the key, and refuse an altered checkpoint', async () => {
      const file = await checkpoint('checkpoint-2.json');
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      const signed = JSON.parse(lines[1]!) as Record<string, unknown>;

      // A checkpoint edited to pin a shorter chain no longer matches its signature.
      const forged = path.join(tmp, 'forged.json');
      fs.writeFileSync(forged, JSON.stringify({ ...signed, seq: Number(signed.seq) - 5 }));
      const refused = await admin(['verify-audit', '--checkpoint', forged]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('its signature does not match its content');

      // Every row rewritten as if written before keying, one detail changed on the way.
      await asOwner(t.pool, `update audit_log set detail = '{"n": 999}' where seq = 3`);
      await asOwner(t.pool, REHASH_UNKEYED(1, ', chain_version = 1, chain_key = null'));
      const caught = await admin(['verify-audit', '--checkpoint', file]);
      expect(caught.code).toBe(1);
      expect(caught.stderr).toContain(`Audit trail altered at row ${String(signed.seq)}`);
      expect(caught.stderr).toContain('not the one the checkpoint');

      // A checkpoint is never signed over a broken chain.
      await asOwner(t.pool, `update audit_log set detail = '{"n": 1000}' where seq = 2`);
      const refusedToSign = await admin(['audit-checkpoint']);
      expect(refusedToSign.code).toBe(1);
      expect(refusedToSign.stdout).not.toContain('"signature"');
      expect(refusedToSign.stderr).toContain('No checkpoint was signed.');
    });

    it('are checked against the key that signed them', async () => {
      await t.close();
      t = await createTestApp();
      await append(2);
      const file = await checkpoint('checkpoint-3.json');
      // Another data folder makes another development key: its checkpoint key differs.
      const otherDir = fs.mkdtempSync(path.join(tmp, 'other-'));
      const wrongKey = await admin(['verify-audit', '--checkpoint', file], { DATA_DIR: otherDir });
      expect(wrongKey.code).toBe(1);
      expect(wrongKey.stderr).toMatch(/signed by key [0-9a-f]{16}, which is neither/);
      // Given the signing key's public half (as after a rotation), it verifies.
      const pem = fs.readFileSync(path.join(tmp, 'audit-checkpoint.key'), 'utf8');
      const publicKey = crypto
        .createPublicKey(crypto.createPrivateKey(pem))
        .export({ type: 'spki', format: 'der' })
        .toString('base64');
      const rotated = await admin(['verify-audit', '--checkpoint', file], {
        DATA_DIR: otherDir,
        AUDIT_CHECKPOINT_PUBLIC_KEYS: publicKey,
      });
      expect(rotated.code, rotated.stderr).toBe(0);
      // The key file is the operator's alone.
      expect(fs.statSync(path.join(tmp, 'audit-checkpoint.key')).mode & 0o777).toBe(0o600);
    });
  });

  describe('rows written before the chain was keyed', () => {
    let pool: pg.Pool;
    const database = `portal_test_${crypto.randomBytes(6).toString('hex')}`;
    const adminUrl = () => inject('adminDatabaseUrl');

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: adminUrl() });
      await admin.connect();
      await admin.query(`create database ${database}`);
      await admin.end();
      pool = createPool(withDatabase(adminUrl(), database));
      // The database as it was before migration 112, with rows its trigger chained.
      const folder = path.resolve('src/server/db/migrations');
      await pool.query(
        'create table schema_migrations (name text primary key, applied_at timestamptz not null default now())',
      );
      for (const name of fs.readdirSync(folder).sort()) {
        if (!name.endsWith('.sql') || name >= '112') continue;
        await pool.query(fs.readFileSync(path.join(folder, name), 'utf8'));
        await pool.query('insert into schema_migrations (name) values ($1)', [name]);
      }
      for (let i = 0; i < 5; i++) {
        await pool.query(
          `insert into audit_log (action, detail) values ('signout', jsonb_build_object('n', $1::int, 'ratio', 1.50))`,
          [i],
        );
      }
      expect(await migrate(pool)).toContain('112-audit-chain-keyed.sql');
      bindAuditChainKeys(pool, parseFieldKeys(newFieldKey('k1')));
    });
    afterAll(async () => {
      await pool.end();
      const admin = new pg.Client({ connectionString: adminUrl() });
      await admin.connect();
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    });

    it('keep verifying as they are, pinned by the keyed rows after them', async () => {
      for (let i = 0; i < 3; i++) {
        await recordAuditEvent(pool, { action: 'signin', actorUserId: null, detail: { i } });
      }
      expect(await verifyAuditChain(pool)).toMatchObject({ intact: true, rows: 8, unkeyed: 5 });
      const versions = await pool.query<{ seq: string; chain_version: number }>(
        'select seq, chain_version from audit_log order by seq',
      );
      expect(versions.rows.map((row) => row.chain_version)).toEqual([1, 1, 1, 1, 1, 2, 2, 2]);

      // The text both versions hash is built in Node from the columns; it is the database's own
      // audit_canonical() text, so nothing rests on a function the owner could redefine.
      const texts = await pool.query<{
        canonical: string;
        seq: string;
        at: string;
        actor: string | null;
        action: string;
        subject: string | null;
        registration: string | null;
        detail: string;
      }>(
        `select audit_canonical(a) as canonical, seq::text, ${auditAtText('a.at')} as at,
                actor_user_id::text as actor, action, subject,
                registration_id::text as registration, detail::text as detail
           from audit_log a order by seq`,
      );
      for (const row of texts.rows) {
        expect(
          auditCanonical({
            seq: row.seq,
            at: row.at,
            actorUserId: row.actor,
            action: row.action,
            subject: row.subject,
            registrationId: row.registration,
            detailText: row.detail,
          }),
        ).toBe(row.canonical);
      }

      // Old rows rewritten with their own (unkeyed) formula break the first keyed row's link.
      await asOwner(pool, `update audit_log set detail = '{"n": 99}' where seq = 2`);
      await asOwner(
        pool,
        `do $$
         declare entry record; previous text;
         begin
           select hash into previous from audit_log where seq = 1;
           for entry in select seq from audit_log where seq between 2 and 5 order by seq loop
             update audit_log set prev_hash = previous,
                                  hash = audit_hash(previous, audit_canonical(audit_log))
              where seq = entry.seq returning hash into previous;
           end loop;
         end $$`,
      );
      expect(await verifyAuditChain(pool)).toMatchObject({
        intact: false,
        seq: 6,
        problem: expect.stringContaining('does not link to the row before'),
      });
    });
  });
});
