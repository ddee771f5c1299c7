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
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditCanonical, bindAuditChainKeys } from '../../src/server/audit/auditChainKeys';
import { auditAtText } from '../../src/server/db/auditLog';
import { recordAuditEvent } from '../../src/server/audit/recordAuditEvent';
import {
  checkpointAge,
  loadCheckpointSigningKey,
  signCheckpoint,
  storeCheckpoint,
} from '../../src/server/audit/auditCheckpoint';
import { verifyAuditChain, type KeyedFromPin } from '../../src/server/audit/verifyAuditChain';
import { migrate } from '../../src/server/db/migrate';
import { newFieldKey, parseFieldKeys } from '../../src/server/fieldEncryption/keyRing';
import { canonicalSql, unkeyedHashSql } from './auditTamper';
import { runCli, type CliRun } from './cliRun';
import { databaseBefore, type DatabaseBefore } from './databaseBefore';
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
 * Rows from `fromSeq` on relinked and rehashed with migration 085's unkeyed formula (written out
 * by the owner: the database's own functions are gone), and the head moved to the new last hash.
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
                           hash = ${unkeyedHashSql('previous', 'audit_log')}
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

      // Every row rewritten as if written before keying, one detail changed on the way: the
      // checkpoint names the first keyed row (issue 39), so the rewrite is caught there.
      expect(signed.keyedFrom).toMatchObject({ seq: 1 });
      await asOwner(t.pool, `update audit_log set detail = '{"n": 999}' where seq = 3`);
      await asOwner(t.pool, REHASH_UNKEYED(1, ', chain_version = 1, chain_key = null'));
      const caught = await admin(['verify-audit', '--checkpoint', file]);
      expect(caught.code).toBe(1);
      expect(caught.stderr).toContain('Audit trail altered at row 1');
      expect(caught.stderr).toContain(
        `the checkpoint of ${String(signed.takenAt)} says the chain is keyed from this row`,
      );

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

  describe('the downgrade of issue 39', () => {
    beforeEach(async () => {
      t = await createTestApp();
      await append(8);
      // A staff decision in the middle of the trail.
      await recordAuditEvent(t.pool, {
        action: 'registration.approved',
        actorUserId: null,
        detail: { via: 'console' },
      });
      await append(8);
    });
    afterEach(async () => t.close());

    /** The first keyed row, as AUDIT_CHAIN_KEYED_FROM takes it. */
    const firstKeyed = async () => {
      const row = await t.pool.query<{ seq: string; hash: string }>(
        'select seq::text, hash from audit_log where chain_version = 2 order by seq limit 1',
      );
      return { seq: Number(row.rows[0]!.seq), hash: row.rows[0]!.hash };
    };
    const pinOf = (keyed: { seq: number; hash: string }): KeyedFromPin[] => [
      { keyedFrom: keyed, source: 'AUDIT_CHAIN_KEYED_FROM' },
    ];
    const keyedFromEnv = (keyed: { seq: number; hash: string }) => ({
      AUDIT_CHAIN_KEYED_FROM: `${keyed.seq}:${keyed.hash}`,
    });

    it('rows rewritten unkeyed with recomputed hashes never verify once the chain was keyed', async () => {
      const keyed = await firstKeyed();
      expect(keyed.seq).toBe(1);
      const before = await admin(['verify-audit'], keyedFromEnv(keyed));
      expect(before.code, before.stderr).toBe(0);
      expect(before.stdout).toContain('Keyed from row 1 on, as AUDIT_CHAIN_KEYED_FROM says.');

      // The approver changed, then every row rewritten as version 1 with the owner's own
      // SHA-256 (the database's functions are gone, so written out), the head moved.
      await asOwner(
        t.pool,
        `update audit_log set detail = '{"via": "cli"}' where action = 'registration.approved'`,
      );
      await asOwner(t.pool, REHASH_UNKEYED(1, ', chain_version = 1, chain_key = null'));
      // The chain alone cannot tell: every row links and matches its plain hash.
      expect(await verifyAuditChain(t.pool)).toMatchObject({ intact: true, firstKeyed: null });
      // The pin kept outside the database can.
      expect(await verifyAuditChain(t.pool, { pins: pinOf(keyed) })).toMatchObject({
        intact: false,
        seq: 1,
        problem: expect.stringContaining(
          'AUDIT_CHAIN_KEYED_FROM says the chain is keyed from this row',
        ),
      });
      const caught = await admin(['verify-audit'], keyedFromEnv(keyed));
      expect(caught.code).toBe(1);
      expect(caught.stderr).toContain('Audit trail altered at row 1');
      expect(caught.stdout).not.toContain('Audit trail intact');

      // Production does not vouch for a chain nothing outside the database pins.
      const unpinned = await admin(['verify-audit'], { NODE_ENV: 'production' });
      expect(unpinned.code).toBe(1);
      expect(unpinned.stderr).toContain('The audit trail cannot be vouched for. Not pinned');
      expect(unpinned.stdout).not.toContain('Audit trail intact');
      // Development says so and what to set.
      const development = await admin(['verify-audit']);
      expect(development.code).toBe(0);
      expect(development.stderr).toMatch(/Not pinned: .*AUDIT_CHAIN_KEYED_FROM=\d+:[0-9a-f]{64}/s);
    });

    it('a deleted decision row, the rest renumbered and rewritten unkeyed, is caught by the pin and by a checkpoint', async () => {
      const keyed = await firstKeyed();
      const file = await checkpoint('checkpoint-before-downgrade.json');
      const signed = JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[1]!) as {
        takenAt: string;
        keyedFrom: { seq: number; hash: string };
      };
      expect(signed.keyedFrom).toEqual(keyed);

      const decision = await t.pool.query<{ seq: string }>(
        `select seq::text from audit_log where action = 'registration.approved'`,
      );
      const gone = Number(decision.rows[0]!.seq);
      await asOwner(t.pool, `delete from audit_log where seq = ${gone}`);
      await asOwner(t.pool, `update audit_log set seq = seq + 1000000 where seq > ${gone}`);
      await asOwner(t.pool, `update audit_log set seq = seq - 1000001 where seq > 1000000`);
      await asOwner(t.pool, REHASH_UNKEYED(1, ', chain_version = 1, chain_key = null'));
      await t.pool.query(
        `update audit_chain_head set last_seq = (select max(seq) from audit_log),
                last_hash = (select hash from audit_log order by seq desc limit 1)`,
      );
      expect(await verifyAuditChain(t.pool)).toMatchObject({ intact: true });
      expect(
        (await t.pool.query(`select 1 from audit_log where action = 'registration.approved'`))
          .rowCount,
      ).toBe(0);

      const pinned = await admin(['verify-audit'], keyedFromEnv(keyed));
      expect(pinned.code).toBe(1);
      expect(pinned.stderr).toContain('Audit trail altered at row 1');
      // Without the configuration, the checkpoint's own record of the first keyed row.
      const byCheckpoint = await admin(['verify-audit', '--checkpoint', file]);
      expect(byCheckpoint.code).toBe(1);
      expect(byCheckpoint.stderr).toContain(
        `Audit trail altered at row 1 (id 1): it is unkeyed, but the checkpoint of ${signed.takenAt} says the chain is keyed from this row`,
      );
    });

    it('leaves the database no function that computes a chain hash', async () => {
      for (const sql of [
        `select audit_hash('a', 'b')`,
        'select audit_canonical(a) from audit_log a limit 1',
      ]) {
        await expect(t.pool.query(sql)).rejects.toThrow(/does not exist/);
      }
      // An unkeyed row cannot be appended either.
      await expect(
        t.pool.query(`insert into audit_log (action, chain_version) values ('signout', 1)`),
      ).rejects.toThrow(/appended by the portal, keyed/);
    });

    it('checkpoints taken on a schedule are kept in AUDIT_CHECKPOINT_DIR; verify-audit checks the newest and says its age', async () => {
      const dir = path.join(tmp, `scheduled-${crypto.randomBytes(4).toString('hex')}`);
      const scheduled = { AUDIT_CHECKPOINT_DIR: dir };
      const none = await admin(['verify-audit'], scheduled);
      expect(none.code).toBe(0);
      expect(none.stderr).toContain('No checkpoint: rows cut from the end cannot be told.');

      for (let run = 0; run < 2; run++) {
        const taken = await admin(['audit-checkpoint'], scheduled);
        expect(taken.code, taken.stderr).toBe(0);
        expect(taken.stderr).toContain(`Kept in ${dir}/audit-checkpoint-`);
      }
      const files = fs.readdirSync(dir).sort();
      expect(files).toHaveLength(2);
      expect(fs.statSync(path.join(dir, files[1]!)).mode & 0o777).toBe(0o444);
      const newest = JSON.parse(fs.readFileSync(path.join(dir, files[1]!), 'utf8')) as {
        seq: number;
      };

      const verified = await admin(['verify-audit'], scheduled);
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout).toContain(`Every row up to row ${newest.seq} is as the checkpoint`);
      expect(verified.stdout).toMatch(/that checkpoint is \d+ minutes? old\./);
      expect(verified.stdout).toContain('Keyed from row 1 on, as the checkpoint of');

      // A checkpoint two days old (signed with the same key) is said to be stale.
      const head = await t.pool.query<{ seq: string; hash: string }>(
        'select last_seq::text as seq, last_hash as hash from audit_chain_head',
      );
      const signingKey = loadCheckpointSigningKey({
        auditCheckpointKey: undefined,
        auditCheckpointPublicKeys: undefined,
        production: false,
        dataDir: tmp,
      });
      const staleDir = path.join(dir, 'stale');
      const stale = signCheckpoint(
        { seq: Number(head.rows[0]!.seq), hash: head.rows[0]!.hash, at: 'then' },
        await firstKeyed(),
        signingKey,
        new Date(Date.now() - 2 * 24 * 60 * 60 * 1000),
      );
      storeCheckpoint(staleDir, stale.line, stale.checkpoint);
      const old = await admin(['verify-audit'], { AUDIT_CHECKPOINT_DIR: staleDir });
      expect(old.code, old.stderr).toBe(0);
      expect(old.stderr).toContain('The newest checkpoint is 2 days old');

      // A forged file in the store is refused, not skipped.
      fs.writeFileSync(
        path.join(dir, 'audit-checkpoint-2099-01-01T00-00-00-000Z.json'),
        JSON.stringify({ ...newest, seq: newest.seq + 1 }),
      );
      const forged = await admin(['verify-audit'], scheduled);
      expect(forged.code).toBe(1);
      expect(forged.stderr).toContain('its signature does not match its content');
      expect(checkpointAge('2026-01-01T00:00:00Z', new Date('2026-01-01T00:45:00Z'))).toEqual({
        words: '45 minutes',
        overADay: false,
      });
      expect(checkpointAge('2026-01-01T00:00:00Z', new Date('2026-01-02T03:00:00Z'))).toEqual({
        words: '27 hours',
        overADay: true,
      });
    });
  });

  describe('rows written before the chain was keyed', () => {
    let pool: pg.Pool;
    let before: DatabaseBefore;

    beforeAll(async () => {
      // The database as it was before migration 112, with rows its trigger chained.
      before = await databaseBefore('112');
      pool = before.pool;
      for (let i = 0; i < 5; i++) {
        await pool.query(
          `insert into audit_log (action, detail) values ('signout', jsonb_build_object('n', $1::int, 'ratio', 1.50))`,
          [i],
        );
      }
      expect(await migrate(pool)).toContain('112-audit-chain-keyed.sql');
      bindAuditChainKeys(pool, parseFieldKeys(newFieldKey('k1')));
    });
    afterAll(async () => before.drop());

    it('keep verifying as they are, pinned by the keyed rows after them', async () => {
      for (let i = 0; i < 3; i++) {
        await recordAuditEvent(pool, { action: 'signin', actorUserId: null, detail: { i } });
      }
      expect(await verifyAuditChain(pool)).toMatchObject({ intact: true, rows: 8, unkeyed: 5 });
      const versions = await pool.query<{ seq: string; chain_version: number }>(
        'select seq, chain_version from audit_log order by seq',
      );
      expect(versions.rows.map((row) => row.chain_version)).toEqual([1, 1, 1, 1, 1, 2, 2, 2]);

      // The text both versions hash is built in Node from the columns; it is migration 085's
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
        `select ${canonicalSql('a')} as canonical, seq::text, ${auditAtText('a.at')} as at,
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
                                  hash = ${unkeyedHashSql('previous', 'audit_log')}
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
