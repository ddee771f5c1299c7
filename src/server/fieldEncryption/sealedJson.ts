/**
 * Sensitive values inside stored JSON (answers, payloads) as AES-256-GCM envelopes: the value at
 * a JSON pointer becomes `{"$sealed": "v1.<key-id>.<iv>.<ciphertext>.<tag>"}` (base64url parts).
 * The associated data binds each envelope to its column, its row and its place in the document,
 * so a value copied to another field or registration no longer opens. Readers open a document
 * without knowing which fields are sensitive: every envelope says it is one.
 */
import crypto from 'node:crypto';
import type { FieldKeyRing } from './keyRing';
import { fromPointer, toPointer } from '../../shared/forms/model/pointer';

/** Where a document is stored: `registrations.payload` of registration `row`. */
export interface SealContext {
  column: string;
  row: string;
}

interface SealedValue {
  $sealed: string;
}

/** An envelope this server cannot open: its key is not configured, or it does not verify. */
interface UnreadableValue {
  pointer: string;
  keyId: string;
  reason: 'unknown-key' | 'not-authentic';
}

/** Opening failed; the message names the key and what to do, never a value. */
export class UnreadableFieldError extends Error {
  override name = 'UnreadableFieldError';
  constructor(readonly unreadable: UnreadableValue[]) {
    super(unreadableMessage(unreadable));
  }
}

/** One sentence for staff and operators about values that cannot be opened. */
export function unreadableMessage(unreadable: UnreadableValue[]): string {
  const missing = [
    ...new Set(unreadable.filter((u) => u.reason === 'unknown-key').map((u) => u.keyId)),
  ];
  if (missing.length > 0) {
    return `The sensitive answers of this registration cannot be read: they are encrypted under the key ${missing.join(', ')}, which this server is not given. Ask an operator to add it to FIELD_ENCRYPTION_KEYS.`;
  }
  return 'The sensitive answers of this registration cannot be read: their encryption does not verify (wrong key, or the stored values were altered).';
}

const VERSION = 'v1';

export const isSealed = (value: unknown): value is SealedValue =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as Record<string, unknown>).$sealed === 'string' &&
  Object.keys(value).length === 1;

function associatedData(context: SealContext, pointer: string): Buffer {
  return Buffer.from(`northstar-field:${context.column}:${context.row}:${pointer}`, 'utf8');
}

const IV_BYTES = 12;

/**
 * Encrypts one JSON value under the ring's current key. `iv` is a fresh random 96-bit nonce
 * (drawn here when not given; `sealAt` draws a document's nonces in one call, since a call for
 * each of 100 values cost more than their encryption).
 */
function sealValue(
  ring: FieldKeyRing,
  value: unknown,
  context: SealContext,
  pointer: string,
  iv: Buffer = crypto.randomBytes(IV_BYTES),
): SealedValue {
  const key = ring.current;
  const cipher = crypto.createCipheriv('aes-256-gcm', ring.cipherKey(key), iv);
  cipher.setAAD(associatedData(context, pointer));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return {
    $sealed: [VERSION, key.id, iv, ciphertext, tag]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.'),
  };
}

/** The key id an envelope names (for rotation counts). */
function sealedKeyId(sealed: SealedValue): string {
  return sealed.$sealed.split('.')[1] ?? '';
}

function openValue(
  ring: FieldKeyRing,
  sealed: SealedValue,
  context: SealContext,
  pointer: string,
): { value: unknown } | UnreadableValue {
  const [version, keyId = '', iv, ciphertext, tag] = sealed.$sealed.split('.');
  const key = ring.find(keyId);
  if (!key) return { pointer, keyId, reason: 'unknown-key' };
  if (version !== VERSION || !iv || ciphertext === undefined || !tag) {
    return { pointer, keyId, reason: 'not-authentic' };
  }
  try {
    const decipher = crypto.createDecipheriv(
      'aes-256-gcm',
      ring.cipherKey(key),
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAAD(associatedData(context, pointer));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([
      decipher.update(Buffer.from(ciphertext, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { pointer, keyId, reason: 'not-authentic' };
  }
}

const isContainer = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** A container's own copy, one level deep (its children still shared). */
const shallowCopy = (value: Record<string, unknown>): Record<string, unknown> =>
  (Array.isArray(value) ? value.slice() : { ...value }) as Record<string, unknown>;

/**
 * `document` with the values at `pointers` sealed (pointers that name nothing are skipped: an
 * optional answer left blank). The objects and lists on the way to a sealed value are copies;
 * the rest is shared with `document` (a copy of all of it cost more than the encryption), so
 * neither is to be changed afterwards: a sealed document is written, not edited.
 */
export function sealAt<T>(
  ring: FieldKeyRing,
  document: T,
  pointers: Iterable<string>,
  context: SealContext,
): T {
  if (!isContainer(document)) return document;
  const copy = shallowCopy(document);
  const copies = new Set<unknown>([copy]);
  const targets: { parent: Record<string, unknown>; key: string; pointer: string }[] = [];
  for (const pointer of new Set(pointers)) {
    const keys = fromPointer(pointer);
    const last = keys.pop();
    if (last === undefined) continue;
    let node: unknown = copy;
    for (const key of keys) {
      if (!isContainer(node)) break;
      let child = node[key];
      if (isContainer(child) && !copies.has(child)) {
        child = shallowCopy(child);
        copies.add(child);
        node[key] = child;
      }
      node = child;
    }
    if (typeof node !== 'object' || node === null || !(last in node)) continue;
    const parent = node as Record<string, unknown>;
    if (parent[last] === undefined || isSealed(parent[last])) continue;
    targets.push({ parent, key: last, pointer });
  }
  // One draw for every nonce: each value still gets its own 12 random bytes, never reused.
  const nonces = targets.length > 0 ? crypto.randomBytes(IV_BYTES * targets.length) : null;
  targets.forEach(({ parent, key, pointer }, index) => {
    const iv = nonces!.subarray(index * IV_BYTES, (index + 1) * IV_BYTES);
    parent[key] = sealValue(ring, parent[key], context, pointer, iv);
  });
  return copy as T;
}

/**
 * Walks a document and replaces each envelope with what `visit` answers for it (its pointer in
 * the document given). Returns a new document; the input is not changed. The keys of the way
 * down are kept on a stack and made a pointer only at an envelope (most nodes hold none).
 */
function mapSealed(
  document: unknown,
  visit: (sealed: SealedValue, pointer: string) => unknown,
): unknown {
  const keys: string[] = [];
  const walk = (node: unknown): unknown => {
    if (!isContainer(node)) return node;
    if (isSealed(node)) return visit(node, toPointer(keys));
    if (Array.isArray(node)) {
      const out: unknown[] = new Array<unknown>(node.length);
      for (let index = 0; index < node.length; index++) {
        keys.push(String(index));
        out[index] = walk(node[index]);
        keys.pop();
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node)) {
      keys.push(key);
      const value = walk(node[key]);
      keys.pop();
      // A key `__proto__` (JSON may hold one) stays a key, as Object.fromEntries keeps it.
      if (key === '__proto__') {
        Object.defineProperty(out, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else out[key] = value;
    }
    return out;
  };
  return walk(document);
}

/**
 * The document with every envelope opened, and the envelopes that could not be (left as null,
 * so a reader shows the rest and says what it cannot show).
 */
export function openSealedLeniently<T>(
  ring: FieldKeyRing,
  document: T,
  context: SealContext,
): { value: T; unreadable: UnreadableValue[] } {
  const unreadable: UnreadableValue[] = [];
  const value = mapSealed(document, (sealed, pointer) => {
    const opened = openValue(ring, sealed, context, pointer);
    if ('value' in opened) return opened.value;
    unreadable.push(opened);
    return null;
  }) as T;
  return { value, unreadable };
}

/** The document with every envelope opened; throws `UnreadableFieldError` if one cannot be. */
export function openSealed<T>(ring: FieldKeyRing, document: T, context: SealContext): T {
  const { value, unreadable } = openSealedLeniently(ring, document, context);
  if (unreadable.length > 0) throw new UnreadableFieldError(unreadable);
  return value;
}

/**
 * The document with every envelope not under the current key sealed again under it (rotation).
 * Throws `UnreadableFieldError` when one cannot be opened, leaving the caller's row unchanged.
 */
export function resealed<T>(
  ring: FieldKeyRing,
  document: T,
  context: SealContext,
): { value: T; resealed: number; current: number } {
  let count = 0;
  let current = 0;
  const unreadable: UnreadableValue[] = [];
  const value = mapSealed(document, (sealed, pointer) => {
    if (sealedKeyId(sealed) === ring.current.id) {
      current++;
      return sealed;
    }
    const opened = openValue(ring, sealed, context, pointer);
    if (!('value' in opened)) {
      unreadable.push(opened);
      return sealed;
    }
    count++;
    return sealValue(ring, opened.value, context, pointer);
  }) as T;
  if (unreadable.length > 0) throw new UnreadableFieldError(unreadable);
  return { value, resealed: count, current };
}
