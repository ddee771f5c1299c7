import { readAuditHead, readAuditRows } from '../db/auditLog';
import type { Queryable } from '../db/transaction';
import { auditCanonical, auditChainKeysOf, keyedLinkHash, unkeyedLinkHash } from './auditChainKeys';
import type { AuditChainHead, AuditCheckpoint } from './auditCheckpoint';
import type { KeyedFrom } from './keyedFrom';

/** The hash the first row links to. */
const GENESIS_HASH = '0'.repeat(64);

/** The outcome of walking the chain: intact, or the first row that no longer matches. */
export type AuditChainReport =
  | {
      intact: true;
      rows: number;
      /** Rows written before the chain was keyed (version 1, plain SHA-256). */
      unkeyed: number;
      head: AuditChainHead | null;
      /** The first keyed row walked (what AUDIT_CHAIN_KEYED_FROM and checkpoints pin). */
      firstKeyed: KeyedFrom | null;
    }
  | { intact: false; rows: number; seq: number; id: string | null; problem: string };

const BATCH = 5000;

/** Where keyed rows begin, as a source outside the database says (keyedFrom.ts). */
export interface KeyedFromPin {
  keyedFrom: KeyedFrom;
  /** Who says so, for the report: `AUDIT_CHAIN_KEYED_FROM`, or a checkpoint. */
  source: string;
}

/**
 * Walks the audit trail in chain order and recomputes every link here, in Node, from the row's
 * columns (never from a function the database's owner could redefine): the first row whose
 * content no longer gives its hash, whose `prev_hash` is not the hash of the row before, that is
 * missing (a gap in `seq`, or rows cut from the end: the head row remembers the last), or that is
 * unkeyed after keyed rows (the chain rewritten without its key) is named. Keyed rows (version 2)
 * are checked with the key their row names, from the keys bound to `db` (auditChainKeys.ts).
 *
 * With a checkpoint (auditCheckpoint.ts, its signature checked by the caller), the row it names
 * must still have the hash it signed, and rows up to it must all be there: an owner who rewrites
 * the whole chain, or cuts its tail and moves the head back, is caught by it.
 *
 * Each pin (keyedFrom.ts: the configuration's AUDIT_CHAIN_KEYED_FROM, a checkpoint's) names the
 * first keyed row: that row must be keyed and keep its hash, and no row from it on may be
 * unkeyed, so a chain once keyed never verifies unkeyed again, even rewritten from row 1.
 */
export async function verifyAuditChain(
  db: Queryable,
  options: { checkpoint?: AuditCheckpoint; pins?: KeyedFromPin[] } = {},
): Promise<AuditChainReport> {
  const { ring } = auditChainKeysOf(db);
  const checkpoint = options.checkpoint;
  const pins = options.pins ?? [];
  let firstKeyed: KeyedFrom | null = null;
  let expectedSeq = 1;
  let previousHash = GENESIS_HASH;
  let rows = 0;
  let unkeyed = 0;
  let keyedSeen = false;
  let head: AuditChainHead | null = null;
  for (;;) {
    const batch = await readAuditRows(db, expectedSeq, BATCH);
    for (const row of batch) {
      const seq = Number(row.seq);
      const broken = (problem: string): AuditChainReport => ({
        intact: false,
        rows,
        seq,
        id: row.id,
        problem,
      });
      if (seq !== expectedSeq) {
        return broken(`row ${expectedSeq} is missing (the next row is ${seq})`);
      }
      if (row.prev_hash !== previousHash) {
        return broken('it does not link to the row before (its prev_hash differs)');
      }
      const pinnedBefore = pins.find((pin) => pin.keyedFrom.seq <= seq);
      if (row.chain_version !== 2 && pinnedBefore) {
        const from = pinnedBefore.keyedFrom.seq;
        return broken(
          from === seq
            ? `it is unkeyed, but ${pinnedBefore.source} says the chain is keyed from this row (the chain was rewritten without its key)`
            : `it is unkeyed after row ${from}, from which ${pinnedBefore.source} says the chain is keyed (the chain was rewritten without its key)`,
        );
      }
      const canonical = auditCanonical({
        seq: row.seq,
        at: row.at,
        actorUserId: row.actor_user_id,
        action: row.action,
        subject: row.subject,
        registrationId: row.registration_id,
        detailText: row.detail,
      });
      let hash: string;
      if (row.chain_version === 2) {
        const key = row.chain_key === null ? undefined : ring.find(row.chain_key);
        if (!key) {
          return broken(
            `its key ${row.chain_key ?? '(none)'} is not in AUDIT_CHAIN_KEYS, so it cannot be checked`,
          );
        }
        hash = keyedLinkHash(key, row.prev_hash, canonical);
        keyedSeen = true;
      } else {
        if (keyedSeen) {
          return broken('it is unkeyed after keyed rows (the chain was rewritten without its key)');
        }
        hash = unkeyedLinkHash(row.prev_hash, canonical);
        unkeyed++;
      }
      if (hash !== row.hash) {
        return broken('its content no longer matches its hash (the row was changed)');
      }
      for (const pin of pins) {
        if (pin.keyedFrom.seq === seq && pin.keyedFrom.hash !== row.hash) {
          return broken(
            `its hash is not the one ${pin.source} names for the first keyed row (the chain was rewritten up to here)`,
          );
        }
      }
      if (row.chain_version === 2 && !firstKeyed) firstKeyed = { seq, hash: row.hash };
      if (checkpoint && seq === checkpoint.seq && row.hash !== checkpoint.hash) {
        return broken(
          `its hash is not the one the checkpoint of ${checkpoint.takenAt} signed (the chain was rewritten up to here)`,
        );
      }
      previousHash = row.hash;
      expectedSeq = seq + 1;
      rows++;
      head = { seq, hash: row.hash, at: row.at };
    }
    if (batch.length < BATCH) break;
  }
  if (checkpoint && expectedSeq - 1 < checkpoint.seq) {
    return {
      intact: false,
      rows,
      seq: expectedSeq,
      id: null,
      problem: `rows ${expectedSeq} to ${checkpoint.seq} are missing from the end (the checkpoint of ${checkpoint.takenAt} counted ${checkpoint.seq})`,
    };
  }
  const beyond = pins.find((pin) => pin.keyedFrom.seq > expectedSeq - 1);
  if (beyond) {
    return {
      intact: false,
      rows,
      seq: expectedSeq,
      id: null,
      problem: `rows ${expectedSeq} to ${beyond.keyedFrom.seq} are missing (${beyond.source} says the chain is keyed from row ${beyond.keyedFrom.seq})`,
    };
  }
  const last = await readAuditHead(db);
  if (!last) {
    return { intact: false, rows, seq: expectedSeq, id: null, problem: 'the head row is missing' };
  }
  if (Number(last.last_seq) > expectedSeq - 1) {
    return {
      intact: false,
      rows,
      seq: expectedSeq,
      id: null,
      problem: `rows ${expectedSeq} to ${last.last_seq} are missing from the end`,
    };
  }
  if (Number(last.last_seq) !== expectedSeq - 1 || last.last_hash !== previousHash) {
    return {
      intact: false,
      rows,
      seq: expectedSeq - 1,
      id: null,
      problem: 'the chain head does not name the last row',
    };
  }
  return { intact: true, rows, unkeyed, head, firstKeyed };
}
