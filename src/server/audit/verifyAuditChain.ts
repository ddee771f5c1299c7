import crypto from 'node:crypto';
import type { Queryable } from '../db/transaction';

/** The hash the first row links to. */
const GENESIS_HASH = '0'.repeat(64);

/** The outcome of walking the chain: intact, or the first row that no longer matches. */
type AuditChainReport =
  | { intact: true; rows: number }
  | { intact: false; rows: number; seq: number; id: string | null; problem: string };

interface ChainRow {
  id: string;
  seq: string;
  prev_hash: string;
  hash: string;
  canonical: string;
}

const BATCH = 5000;

/**
 * Walks the audit trail in chain order and recomputes every link here, in Node, from the row's
 * canonical text: the first row whose content no longer gives its hash, whose `prev_hash` is not
 * the hash of the row before, or that is missing (a gap in `seq`, or rows cut from the end: the
 * head row remembers the last) is named. Reads in batches, so a long trail needs little memory.
 */
export async function verifyAuditChain(db: Queryable): Promise<AuditChainReport> {
  let expectedSeq = 1;
  let previousHash = GENESIS_HASH;
  let rows = 0;
  for (;;) {
    const batch = await db.query<ChainRow>(
      `select id::text, seq::text, prev_hash, hash, audit_canonical(a) as canonical
         from audit_log a where a.seq >= $1 order by a.seq limit $2`,
      [expectedSeq, BATCH],
    );
    for (const row of batch.rows) {
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
      const hash = crypto
        .createHash('sha256')
        .update(row.prev_hash + row.canonical, 'utf8')
        .digest('hex');
      if (hash !== row.hash) {
        return broken('its content no longer matches its hash (the row was changed)');
      }
      previousHash = row.hash;
      expectedSeq = seq + 1;
      rows++;
    }
    if (batch.rows.length < BATCH) break;
  }
  const head = await db.query<{ last_seq: string; last_hash: string }>(
    'select last_seq::text, last_hash from audit_chain_head',
  );
  const last = head.rows[0];
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
  return { intact: true, rows };
}
