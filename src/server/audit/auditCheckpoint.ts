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

/** The last row walked: what a checkpoint signs (verifyAuditChain.ts reports it). */
export interface AuditChainHead {
  seq: number;
  hash: string;
  /** The row's time, UTC to the microsecond. */
  at: string;
}

const FORMAT = 'audit-checkpoint/1';
const AUDIT_CHECKPOINT_KEY_FILE = 'audit-checkpoint.key';

/** A checkpoint as signed: the head row and when the checkpoint was taken. */
export interface AuditCheckpoint {
  seq: number;
  hash: string;
  /** The head row's time. */
  rowAt: string;
  takenAt: string;
  /** The signing key's fingerprint (SHA-256 of its public key, 16 hex digits). */
  key: string;
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

function signedText(checkpoint: AuditCheckpoint): Buffer {
  return Buffer.from(
    JSON.stringify([
      FORMAT,
      checkpoint.seq,
      checkpoint.hash,
      checkpoint.rowAt,
      checkpoint.takenAt,
      checkpoint.key,
    ]),
    'utf8',
  );
}

/** The checkpoint of a verified head, as one line of JSON (the file an operator keeps). */
export function signCheckpoint(head: AuditChainHead, signingKey: crypto.KeyObject): string {
  const checkpoint: AuditCheckpoint = {
    seq: head.seq,
    hash: head.hash,
    rowAt: head.at,
    takenAt: new Date().toISOString(),
    key: fingerprint(crypto.createPublicKey(signingKey)),
  };
  const signature = crypto.sign(null, signedText(checkpoint), signingKey).toString('base64');
  return JSON.stringify({ format: FORMAT, ...checkpoint, signature });
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
      if (
        parsed &&
        typeof parsed === 'object' &&
        (parsed as { format?: unknown }).format === FORMAT
      ) {
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
    typeof found.signature !== 'string'
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
  };
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
    signedText(checkpoint),
    key,
    Buffer.from(found.signature, 'base64'),
  );
  return valid
    ? { checkpoint, valid }
    : { checkpoint, valid, reason: 'its signature does not match its content (it was altered)' };
}
