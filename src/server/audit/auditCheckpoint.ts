/**
 * Audit checkpoints (issue 27): the chain's head (row number, hash, time) signed with an Ed25519
 * key kept outside the database, printed by `npm run admin -- audit-checkpoint` for operators to
 * store elsewhere (a log, a ticket, a WORM bucket). `verify-audit --checkpoint <file>` then proves
 * every row up to it unchanged, even against someone holding the database and the chain's key,
 * and notices rows cut from the end.
 *
 * The signing key: `AUDIT_CHECKPOINT_KEY` (PKCS#8, PEM or its DER in base64); development makes
 * `DATA_DIR/audit-checkpoint.key` (mode 600). Checkpoints name their key by fingerprint; after a
 * rotation, the earlier keys' public halves go in `AUDIT_CHECKPOINT_PUBLIC_KEYS` (SPKI, PEM or
 * DER in base64, comma-separated) so older checkpoints still verify. A verifier without the
 * private key needs only those.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { FieldKeyError } from '../fieldEncryption/keyRing';
import type { KeyedFrom } from './keyedFrom';

/** The last row walked: what a checkpoint signs (verifyAuditChain.ts reports it). */
export interface AuditChainHead {
  seq: number;
  hash: string;
  /** The row's time, UTC to the microsecond. */
  at: string;
}

/** Checkpoints before issue 39 signed the head only; from then on, the first keyed row too. */
const FORMAT_1 = 'audit-checkpoint/1';
const FORMAT = 'audit-checkpoint/2';
const AUDIT_CHECKPOINT_KEY_FILE = 'audit-checkpoint.key';

/** A checkpoint as signed: the head row, the first keyed row and when it was taken. */
export interface AuditCheckpoint {
  seq: number;
  hash: string;
  /** The head row's time. */
  rowAt: string;
  takenAt: string;
  /** The signing key's fingerprint (SHA-256 of its public key, 16 hex digits). */
  key: string;
  /**
   * The chain's first keyed row when the checkpoint was taken (keyedFrom.ts): null in a
   * checkpoint of the first format, or of a chain with no keyed row yet.
   */
  keyedFrom: KeyedFrom | null;
}

/** A checkpoint file that cannot be read as one (unusable input, not a verdict on the trail). */
export class AuditCheckpointError extends Error {
  override name = 'AuditCheckpointError';
}

interface CheckpointKeyConfig {
  auditCheckpointKey: string | undefined;
  auditCheckpointPublicKeys: string | undefined;
  production: boolean;
  dataDir: string;
}

function fingerprint(publicKey: crypto.KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return crypto.createHash('sha256').update(der).digest('hex').slice(0, 16);
}

function readKey(text: string, kind: 'private' | 'public', source: string): crypto.KeyObject {
  const trimmed = text.trim();
  let key: crypto.KeyObject;
  try {
    const pem = trimmed.includes('-----BEGIN');
    const der = Buffer.from(trimmed, 'base64');
    key =
      kind === 'private'
        ? crypto.createPrivateKey(pem ? trimmed : { key: der, format: 'der', type: 'pkcs8' })
        : crypto.createPublicKey(pem ? trimmed : { key: der, format: 'der', type: 'spki' });
  } catch {
    throw new FieldKeyError(`${source} is not a readable ${kind} key.`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new FieldKeyError(`${source} is not an Ed25519 key.`);
  }
  return key;
}

/**
 * The key that signs checkpoints: `AUDIT_CHECKPOINT_KEY`; production refuses without it;
 * development uses (or makes) its key file in `DATA_DIR`, as the field encryption key's.
 */
export function loadCheckpointSigningKey(config: CheckpointKeyConfig): crypto.KeyObject {
  if (config.auditCheckpointKey) {
    return readKey(config.auditCheckpointKey, 'private', 'AUDIT_CHECKPOINT_KEY');
  }
  if (config.production) {
    throw new FieldKeyError(
      'AUDIT_CHECKPOINT_KEY is not set: production signs audit checkpoints with an Ed25519 key kept outside the database (see "The audit trail" in docs/operators.md).',
    );
  }
  const file = path.join(config.dataDir, AUDIT_CHECKPOINT_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const { privateKey } = crypto.generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    try {
      fs.writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readKey(fs.readFileSync(file, 'utf8'), 'private', file);
}

/** The public keys a checkpoint may be signed with: the signing key's, and earlier ones. */
function checkpointVerifyKeys(config: CheckpointKeyConfig): crypto.KeyObject[] {
  const keys = (config.auditCheckpointPublicKeys ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => readKey(entry, 'public', 'AUDIT_CHECKPOINT_PUBLIC_KEYS'));
  if (config.auditCheckpointKey || !config.production) {
    keys.unshift(crypto.createPublicKey(loadCheckpointSigningKey(config)));
  }
  if (keys.length === 0) {
    throw new FieldKeyError(
      'Neither AUDIT_CHECKPOINT_KEY nor AUDIT_CHECKPOINT_PUBLIC_KEYS is set: no key can check a checkpoint.',
    );
  }
  return keys;
}

function signedText(format: string, checkpoint: AuditCheckpoint): Buffer {
  const fields: unknown[] = [
    format,
    checkpoint.seq,
    checkpoint.hash,
    checkpoint.rowAt,
    checkpoint.takenAt,
    checkpoint.key,
  ];
  if (format !== FORMAT_1) {
    fields.push(checkpoint.keyedFrom?.seq ?? null, checkpoint.keyedFrom?.hash ?? null);
  }
  return Buffer.from(JSON.stringify(fields), 'utf8');
}

/**
 * The checkpoint of a verified head and the chain's first keyed row, as one line of JSON (the
 * file an operator keeps) and as read back.
 */
export function signCheckpoint(
  head: AuditChainHead,
  keyedFrom: KeyedFrom | null,
  signingKey: crypto.KeyObject,
  takenAt: Date = new Date(),
): { line: string; checkpoint: AuditCheckpoint } {
  const checkpoint: AuditCheckpoint = {
    seq: head.seq,
    hash: head.hash,
    rowAt: head.at,
    takenAt: takenAt.toISOString(),
    key: fingerprint(crypto.createPublicKey(signingKey)),
    keyedFrom,
  };
  const signature = crypto
    .sign(null, signedText(FORMAT, checkpoint), signingKey)
    .toString('base64');
  return { line: JSON.stringify({ format: FORMAT, ...checkpoint, signature }), checkpoint };
}

/**
 * A checkpoint file read and its signature checked. Lines around the JSON (npm's own, a log's)
 * are skipped. A file that holds no checkpoint throws AuditCheckpointError; one whose signature
 * fails comes back not valid, with the reason (its content cannot be trusted, whatever it says).
 */
export function readCheckpoint(
  text: string,
  config: CheckpointKeyConfig,
): { checkpoint: AuditCheckpoint; valid: boolean; reason?: string } {
  let found: Record<string, unknown> | undefined;
  for (const line of text.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    try {
      const parsed = JSON.parse(line) as unknown;
      const format =
        parsed && typeof parsed === 'object' && (parsed as { format?: unknown }).format;
      if (format === FORMAT || format === FORMAT_1) {
        found = parsed as Record<string, unknown>;
        break;
      }
    } catch {
      // Not this line.
    }
  }
  if (
    !found ||
    !Number.isSafeInteger(found.seq) ||
    typeof found.hash !== 'string' ||
    typeof found.rowAt !== 'string' ||
    typeof found.takenAt !== 'string' ||
    typeof found.key !== 'string' ||
    typeof found.signature !== 'string' ||
    (found.format === FORMAT && !isKeyedFrom(found.keyedFrom))
  ) {
    throw new AuditCheckpointError(
      `No audit checkpoint (${FORMAT}) found: pass the file audit-checkpoint printed.`,
    );
  }
  const checkpoint: AuditCheckpoint = {
    seq: found.seq as number,
    hash: found.hash,
    rowAt: found.rowAt,
    takenAt: found.takenAt,
    key: found.key,
    keyedFrom: keyedFromOf(found),
  };
  const format = found.format as string;
  const key = checkpointVerifyKeys(config).find(
    (candidate) => fingerprint(candidate) === checkpoint.key,
  );
  if (!key) {
    return {
      checkpoint,
      valid: false,
      reason: `it is signed by key ${checkpoint.key}, which is neither AUDIT_CHECKPOINT_KEY nor in AUDIT_CHECKPOINT_PUBLIC_KEYS`,
    };
  }
  const valid = crypto.verify(
    null,
    signedText(format, checkpoint),
    key,
    Buffer.from(found.signature, 'base64'),
  );
  return valid
    ? { checkpoint, valid }
    : { checkpoint, valid, reason: 'its signature does not match its content (it was altered)' };
}

/** A checkpoint's `keyedFrom`: null, or a row number and a hash. */
function isKeyedFrom(value: unknown): boolean {
  if (value === null) return true;
  const pin = value as { seq?: unknown; hash?: unknown } | undefined;
  return (
    typeof pin === 'object' &&
    Number.isSafeInteger(pin.seq) &&
    typeof pin.hash === 'string' &&
    /^[0-9a-f]{64}$/.test(pin.hash)
  );
}

function keyedFromOf(found: Record<string, unknown>): KeyedFrom | null {
  const pin = found.format === FORMAT ? (found.keyedFrom as KeyedFrom | null) : null;
  return pin ? { seq: pin.seq, hash: pin.hash } : null;
}

const STORED_NAME = /^audit-checkpoint-[0-9TZ-]+\.json$/;

/**
 * Keeps a checkpoint in `AUDIT_CHECKPOINT_DIR` (issue 39 §1: taken on a schedule, from cron), one
 * read-only file per checkpoint named by its time, never overwriting one. Returns its path.
 */
export function storeCheckpoint(dir: string, line: string, checkpoint: AuditCheckpoint): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `audit-checkpoint-${checkpoint.takenAt.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${line}\n`, { mode: 0o444, flag: 'wx' });
  return file;
}

/** The newest checkpoint kept in a folder, or why one of them cannot be trusted. */
type StoredCheckpoint =
  | { file: string; checkpoint: AuditCheckpoint; valid: true }
  | { file: string; valid: false; reason: string };

/**
 * The newest checkpoint (by the time it was taken) of those `storeCheckpoint` kept in `dir`; null
 * when there is none. A file there whose signature fails is reported instead: a forged or altered
 * checkpoint in the store is itself a finding.
 */
export function newestStoredCheckpoint(
  dir: string,
  config: CheckpointKeyConfig,
): StoredCheckpoint | null {
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => STORED_NAME.test(n)) : [];
  let newest: StoredCheckpoint | null = null;
  for (const name of names) {
    const file = path.join(dir, name);
    const read = readCheckpoint(fs.readFileSync(file, 'utf8'), config);
    if (!read.valid) return { file, valid: false, reason: read.reason ?? 'it is not valid' };
    if (!newest?.valid || read.checkpoint.takenAt > newest.checkpoint.takenAt) {
      newest = { file, checkpoint: read.checkpoint, valid: true };
    }
  }
  return newest;
}

/** How long ago a checkpoint was taken, in words (`3 hours`), and whether that is over a day. */
export function checkpointAge(
  takenAt: string,
  now: Date = new Date(),
): { words: string; overADay: boolean } {
  const minutes = Math.max(0, Math.floor((now.getTime() - Date.parse(takenAt)) / 60_000));
  const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const words =
    minutes < 60
      ? count(minutes, 'minute')
      : minutes < 48 * 60
        ? count(Math.floor(minutes / 60), 'hour')
        : count(Math.floor(minutes / (24 * 60)), 'day');
  return { words, overADay: minutes > 24 * 60 };
}
