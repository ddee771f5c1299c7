/**
 * The first keyed row of the audit chain, pinned outside the database (issue 39 §1). Rows written
 * before the chain was keyed (version 1) verify with a plain SHA-256 anyone can recompute, so a
 * database owner could rewrite every row as version 1 and the chain alone would still verify. The
 * row number and hash of the first keyed row, kept in the configuration beside the keys
 * (`AUDIT_CHAIN_KEYED_FROM=<row>:<hash>`) and signed into every checkpoint, say where keyed rows
 * begin: from that row on, an unkeyed row is refused, and the row itself must keep its hash.
 */
import { FieldKeyError } from '../fieldEncryption/keyRing';

/** The first keyed row: its number in the chain and its hash. */
export interface KeyedFrom {
  seq: number;
  hash: string;
}

const KEYED_FROM = /^(\d{1,15}):([0-9a-f]{64})$/;

/** `AUDIT_CHAIN_KEYED_FROM` read (`<row>:<hash>`); a value of another shape is refused. */
export function parseKeyedFrom(text: string): KeyedFrom {
  const match = KEYED_FROM.exec(text.trim());
  const seq = match ? Number(match[1]) : 0;
  if (!match || seq < 1) {
    throw new FieldKeyError(
      'AUDIT_CHAIN_KEYED_FROM must be <row>:<hash>, the number and hash of the first keyed row as verify-audit prints them.',
    );
  }
  return { seq, hash: match[2]! };
}

/** As `AUDIT_CHAIN_KEYED_FROM` takes it. */
export function formatKeyedFrom(keyedFrom: KeyedFrom): string {
  return `${keyedFrom.seq}:${keyedFrom.hash}`;
}
