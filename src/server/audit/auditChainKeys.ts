/**
 * The keys of the audit trail's hash chain (issue 27): each row's hash is an HMAC under a key the
 * database never sees, so its owner can no longer edit a row and recompute the chain after it.
 * `AUDIT_CHAIN_KEYS` lists them as `FIELD_ENCRYPTION_KEYS` does (`<key-id>:<base64 32 bytes>`,
 * comma-separated, the first keying new rows); development makes `DATA_DIR/audit-chain.key`.
 * Rows can never be re-keyed (the trail is append-only), so a key stays in the list as long as
 * the rows it keyed are kept: rotating puts a new key first and keeps the old ones.
 */
import crypto from 'node:crypto';
import type pg from 'pg';
import type { Queryable } from '../db/transaction';
import { loadKeyRing, type FieldKey, type FieldKeyRing } from '../fieldEncryption/keyRing';
import type { AuditCanonicalParts } from '../db/auditLog';

const AUDIT_CHAIN_KEY_FILE = 'audit-chain.key';

/** The audit chain's keys: `AUDIT_CHAIN_KEYS`, or the development key file beside the field key's. */
export function loadAuditChainKeys(options: {
  auditChainKeys: string | undefined;
  production: boolean;
  dataDir: string;
}): FieldKeyRing {
  return loadKeyRing({
    configured: options.auditChainKeys,
    variable: 'AUDIT_CHAIN_KEYS',
    production: options.production,
    dataDir: options.dataDir,
    devFile: AUDIT_CHAIN_KEY_FILE,
    productionMissing:
      'AUDIT_CHAIN_KEYS is not set: production needs the key that seals the audit trail (see "The audit trail" in docs/operators.md).',
  });
}

const ringOfPool = new WeakMap<pg.Pool, FieldKeyRing>();
const ringOfClient = new WeakMap<pg.PoolClient, FieldKeyRing>();

/**
 * Gives a pool the audit chain's keys: every audit row appended through it (or through a client
 * it hands out) is keyed with them. Bound once where the pool is made for the portal (buildApp,
 * the operator CLI), so the many places that audit keep passing only their pool or client.
 */
export function bindAuditChainKeys(pool: pg.Pool, ring: FieldKeyRing): void {
  if (!ringOfPool.has(pool)) {
    pool.on('acquire', (client) => {
      const bound = ringOfPool.get(pool);
      if (bound) ringOfClient.set(client, bound);
    });
  }
  ringOfPool.set(pool, ring);
}

/** The keys bound to a pool or to a client of such a pool, and whether `db` is the pool itself. */
export function auditChainKeysOf(db: Queryable): { ring: FieldKeyRing; pool: pg.Pool | null } {
  const ofPool = ringOfPool.get(db as pg.Pool);
  if (ofPool) return { ring: ofPool, pool: db as pg.Pool };
  const ofClient = ringOfClient.get(db as pg.PoolClient);
  if (ofClient) return { ring: ofClient, pool: null };
  throw new Error('The audit chain keys are not bound to this database pool (bindAuditChainKeys).');
}

/** The HMAC key of the chain under one configured key (HKDF, for this use only). */
function chainHmacKey(key: FieldKey): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', key.secret, Buffer.alloc(0), 'audit-chain', 32));
}

/** A keyed row's hash: HMAC-SHA-256 over the previous row's hash and this row's canonical text. */
export function keyedLinkHash(key: FieldKey, prevHash: string, canonical: string): string {
  return crypto
    .createHmac('sha256', chainHmacKey(key))
    .update(prevHash + canonical, 'utf8')
    .digest('hex');
}

/** A row of the first version's hash (migration 085): plain SHA-256, computed by the database. */
export function unkeyedLinkHash(prevHash: string, canonical: string): string {
  return crypto
    .createHash('sha256')
    .update(prevHash + canonical, 'utf8')
    .digest('hex');
}

/**
 * The text a row's hash covers, built here rather than by the database's `audit_canonical()`
 * (which its owner could redefine to hide an edit): the same text, `jsonb_build_array(...)::text`
 * of migration 085, so rows of either version are checked from the columns themselves.
 */
export function auditCanonical(parts: AuditCanonicalParts): string {
  const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));
  return `[${parts.seq}, ${text(parts.at)}, ${text(parts.actorUserId)}, ${text(parts.action)}, ${text(parts.subject)}, ${text(parts.registrationId)}, ${parts.detailText}]`;
}
