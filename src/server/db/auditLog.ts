/**
 * The audit trail's table (`audit_log`) and its chain head (`audit_chain_head`). The hashes are
 * computed above (audit/): the database never holds the chain's key. Times and values leave here
 * as the text PostgreSQL stores them, since that text is what each row's hash covers.
 */
import type { Queryable } from './transaction';

/** SQL giving a time as `auditCanonical` takes it (pg_catalog named: no look-alike function). */
export function auditAtText(sql: string): string {
  return `pg_catalog.to_char(${sql} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/**
 * The chain's head, locked until the transaction ends (appends from every instance are
 * serialised on it), with the new row's time and values in their stored text forms.
 */
export async function lockAuditHead(
  db: Queryable,
  values: { actorUserId: string | null; registrationId: string | null; detail: object },
): Promise<{
  lastSeq: string;
  lastHash: string;
  at: string;
  actor: string | null;
  registration: string | null;
  detail: string;
}> {
  const head = await db.query<{
    last_seq: string;
    last_hash: string;
    at: string;
    actor: string | null;
    registration: string | null;
    detail: string;
  }>(
    `select last_seq::text, last_hash, ${auditAtText('now()')} as at,
            $1::uuid::text as actor, $2::uuid::text as registration, $3::jsonb::text as detail
       from audit_chain_head for update`,
    [values.actorUserId, values.registrationId, values.detail],
  );
  const row = head.rows[0]!;
  return {
    lastSeq: row.last_seq,
    lastHash: row.last_hash,
    at: row.at,
    actor: row.actor,
    registration: row.registration,
    detail: row.detail,
  };
}

/** The columns a row's hash covers, as text from PostgreSQL's own output functions. */
export interface AuditCanonicalParts {
  seq: string;
  /** `at` in UTC to the microsecond: `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
  at: string;
  actorUserId: string | null;
  action: string;
  subject: string | null;
  registrationId: string | null;
  /** `detail::text`: jsonb's text form (keys sorted, one spelling per value). */
  detailText: string;
}

/** One audit row as appended: keyed (chain version 2) under `chainKey`. */
interface AuditRowToAppend extends AuditCanonicalParts {
  prevHash: string;
  hash: string;
  chainKey: string;
}

export async function insertAuditRow(db: Queryable, row: AuditRowToAppend): Promise<void> {
  await db.query(
    `insert into audit_log (seq, at, actor_user_id, action, subject, registration_id, detail,
                            prev_hash, hash, chain_version, chain_key)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, 2, $10)`,
    [
      row.seq,
      row.at,
      row.actorUserId,
      row.action,
      row.subject,
      row.registrationId,
      row.detailText,
      row.prevHash,
      row.hash,
      row.chainKey,
    ],
  );
}

/** An audit row as the chain check reads it back: every value as the text its hash covers. */
interface AuditChainRow {
  id: string;
  seq: string;
  at: string;
  actor_user_id: string | null;
  action: string;
  subject: string | null;
  registration_id: string | null;
  detail: string;
  prev_hash: string;
  hash: string;
  chain_version: number;
  chain_key: string | null;
}

/** Up to `limit` audit rows from `fromSeq` on, in chain order. */
export async function readAuditRows(
  db: Queryable,
  fromSeq: number,
  limit: number,
): Promise<AuditChainRow[]> {
  const batch = await db.query<AuditChainRow>(
    `select id::text, seq::text, ${auditAtText('a.at')} as at, actor_user_id::text, action,
            subject, registration_id::text, detail::text as detail, prev_hash, hash,
            chain_version, chain_key
       from audit_log a where a.seq >= $1 order by a.seq limit $2`,
    [fromSeq, limit],
  );
  return batch.rows;
}

/** The chain head as it stands (not locked), or null when its row is missing. */
export async function readAuditHead(
  db: Queryable,
): Promise<{ last_seq: string; last_hash: string } | null> {
  const headRow = await db.query<{ last_seq: string; last_hash: string }>(
    'select last_seq::text, last_hash from audit_chain_head',
  );
  return headRow.rows[0] ?? null;
}

/** An audit row about a registration, with who acted as the staff console names them. */
interface RegistrationAuditRow {
  seq: string;
  at: Date;
  action: string;
  actor_user_id: string | null;
  actor_email: string | null;
  actor_is_staff: boolean | null;
  detail: Record<string, unknown>;
}

/**
 * The newest `limit` audit rows of one registration: its own, its application's (by the
 * application id in their detail) and the e-sign consent its signatures relied on.
 */
export async function listRegistrationAuditRows(
  db: Queryable,
  registrationId: string,
  limit: number,
): Promise<RegistrationAuditRow[]> {
  const result = await db.query<RegistrationAuditRow>(
    `select a.seq::text, a.at, a.action, a.actor_user_id, u.email as actor_email,
            u.is_staff as actor_is_staff, a.detail
       from audit_log a left join users u on u.id = a.actor_user_id
      where a.seq in (
              select seq from audit_log where registration_id = $1
              union
              select l.seq from audit_log l
                join applications ap on l.detail ? 'applicationId'
                                    and l.detail ->> 'applicationId' = ap.id::text
                join registrations r on r.user_id = ap.user_id and r.form_id = ap.form_id
               where r.id = $1
              union
              select l.seq from audit_log l
                join signature_evidence s on l.detail ? 'consentId'
                                         and l.detail ->> 'consentId' = s.esign_consent_id::text
               where s.registration_id = $1 and l.action = 'esign.consented')
      order by a.seq desc
      limit $2`,
    [registrationId, limit],
  );
  return result.rows;
}

/**
 * The failed sign-ins recorded for an address (by the digests it may have been written under) or
 * for its account, in chain order.
 */
export async function listFailedSignIns(
  db: Queryable,
  emailDigests: string[],
  userId: string | null,
): Promise<{ seq: string; at: Date; reason: string | null }[]> {
  const found = await db.query<{ seq: string; at: Date; reason: string | null }>(
    `select seq, at, detail->>'reason' as reason from audit_log
      where action = 'signin.failed'
        and (detail->>'emailDigest' = any($1) or actor_user_id = $2)
      order by seq`,
    [emailDigests, userId],
  );
  return found.rows;
}
