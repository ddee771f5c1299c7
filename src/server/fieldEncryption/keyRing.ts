/**
 * The keys that encrypt sensitive identifiers at rest (SSN, passport number, date of birth):
 * `FIELD_ENCRYPTION_KEYS`, a comma-separated list of `<key-id>:<32 bytes in base64>`, the first
 * encrypting and every one decrypting, so a key rotates by putting the new one first, running
 * `npm run admin -- rotate-key`, then removing the old one. Production refuses to start without
 * it; development generates one key into `DATA_DIR/field-encryption.key` (mode 600).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A configuration problem, said in one sentence for the operator (never a stack trace). */
export class FieldKeyError extends Error {
  override name = 'FieldKeyError';
}

export interface FieldKey {
  /** Stored beside each value, so the value says which key opens it. */
  readonly id: string;
  readonly secret: Buffer;
}

export class FieldKeyRing {
  private readonly byId: ReadonlyMap<string, FieldKey>;

  constructor(readonly keys: readonly FieldKey[]) {
    if (keys.length === 0) throw new FieldKeyError('FIELD_ENCRYPTION_KEYS names no key.');
    this.byId = new Map(keys.map((key) => [key.id, key]));
  }

  /** The key new values are encrypted under (the first one configured). */
  get current(): FieldKey {
    return this.keys[0]!;
  }

  find(id: string): FieldKey | undefined {
    return this.byId.get(id);
  }

  /** Each key's secret as a KeyObject, made once: a cipher given one skips importing the bytes. */
  private readonly keyObjects = new Map<FieldKey, crypto.KeyObject>();

  /** The key `key` of this ring as the ciphers take it. */
  cipherKey(key: FieldKey): crypto.KeyObject {
    let made = this.keyObjects.get(key);
    if (!made) {
      made = crypto.createSecretKey(key.secret);
      this.keyObjects.set(key, made);
    }
    return made;
  }
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** `k2:base64,k1:base64` → a key ring (the first key encrypts). */
export function parseFieldKeys(text: string, source = 'FIELD_ENCRYPTION_KEYS'): FieldKeyRing {
  const keys: FieldKey[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    if (!entry) continue;
    const colon = entry.indexOf(':');
    const id = colon > 0 ? entry.slice(0, colon) : '';
    if (!KEY_ID.test(id)) {
      throw new FieldKeyError(
        `${source} must list keys as <key-id>:<base64 key> (ids of letters, digits, - and _), comma-separated.`,
      );
    }
    const secret = Buffer.from(entry.slice(colon + 1), 'base64');
    if (secret.length !== 32) {
      throw new FieldKeyError(
        `The key ${id} in ${source} is not 32 bytes in base64 (make one with: openssl rand -base64 32).`,
      );
    }
    if (keys.some((key) => key.id === id)) {
      throw new FieldKeyError(`The key id ${id} appears twice in ${source}.`);
    }
    keys.push({ id, secret });
  }
  if (keys.length === 0) throw new FieldKeyError(`${source} names no key.`);
  return new FieldKeyRing(keys);
}

/** A new key as `FIELD_ENCRYPTION_KEYS` takes it: `<id>:<base64>`. */
export function newFieldKey(id: string): string {
  return `${id}:${crypto.randomBytes(32).toString('base64')}`;
}

export const DEV_KEY_FILE = 'field-encryption.key';

/**
 * The key ring of this process: `FIELD_ENCRYPTION_KEYS` when set; otherwise production refuses
 * and development uses (or makes) its key file in `DATA_DIR`. Instances sharing a database must
 * share the keys, so they are configured, never generated, wherever more than one runs.
 */
export function loadFieldKeys(options: {
  fieldEncryptionKeys: string | undefined;
  production: boolean;
  dataDir: string;
}): FieldKeyRing {
  return loadKeyRing({
    configured: options.fieldEncryptionKeys,
    variable: 'FIELD_ENCRYPTION_KEYS',
    production: options.production,
    dataDir: options.dataDir,
    devFile: DEV_KEY_FILE,
    productionMissing:
      'FIELD_ENCRYPTION_KEYS is not set: production needs the key that encrypts SSNs, passport numbers and dates of birth (see "Encryption at rest" in docs/operators.md).',
  });
}

/**
 * A ring of `<key-id>:<base64>` keys from its variable; without it, production refuses (in the
 * sentence given) and development uses (or makes, mode 600) its key file in `DATA_DIR`. Shared by
 * the field encryption keys and the audit chain's keys (audit/auditChainKeys.ts).
 */
export function loadKeyRing(options: {
  configured: string | undefined;
  variable: string;
  production: boolean;
  dataDir: string;
  devFile: string;
  productionMissing: string;
}): FieldKeyRing {
  if (options.configured) return parseFieldKeys(options.configured, options.variable);
  if (options.production) throw new FieldKeyError(options.productionMissing);
  const file = path.join(options.dataDir, options.devFile);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(options.dataDir, { recursive: true });
    const id = `dev-${crypto.randomBytes(3).toString('hex')}`;
    try {
      // `wx`: two processes starting together never overwrite each other's key.
      fs.writeFileSync(file, `${newFieldKey(id)}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return parseFieldKeys(fs.readFileSync(file, 'utf8'), file);
}

/**
 * A keyed hash of a submission's answers (HMAC-SHA-256 under a key derived from the current
 * field key with HKDF): a plain SHA-256 of answers holding an SSN and a date of birth could be
 * reversed by guessing those two, everything else being in the row. It only recognises a
 * repeated submission, so a key rotation costs nothing but that recognition for older rows.
 */
export function submissionHash(ring: FieldKeyRing, canonicalAnswers: string): string {
  const key = Buffer.from(
    crypto.hkdfSync('sha256', ring.current.secret, Buffer.alloc(0), 'submission-hash', 32),
  );
  return crypto.createHmac('sha256', key).update(canonicalAnswers).digest('hex');
}
