import type { Queryable } from '../db/transaction';

/** One audit row about a registration, as the staff console lists it. */
export interface RegistrationAuditEvent {
  /** The row's place in the chain (what `verify-audit` names). */
  seq: number;
  at: string;
  action: string;
  /** Who acted, for staff eyes: a staff member's email, the applicant, or the operator CLI. */
  actor: { kind: 'staff'; email: string } | { kind: 'applicant' } | { kind: 'operator' };
  detail: Record<string, unknown>;
}

/** How many events a registration page lists (newest first). */
const REGISTRATION_AUDIT_LIMIT = 200;

/**
 * The audit trail of one registration, newest first: its own events, its application's (the
 * applicant's saves, uploads, removals and refusals, before the registration existed too) and
 * the e-sign consent its signatures relied on. Rows hold ids only; the staff member's email is
 * looked up here, for the page, and never written into the trail.
 */
export async function registrationAuditEvents(
  db: Queryable,
  registrationId: string,
): Promise<RegistrationAuditEvent[]> {
  const result = await db.query<{
    seq: string;
    at: Date;
    action: string;
    actor_user_id: string | null;
    actor_email: string | null;
    actor_is_staff: boolean | null;
    detail: Record<string, unknown>;
  }>(
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
    [registrationId, REGISTRATION_AUDIT_LIMIT],
  );
  return result.rows.map((row) => ({
    seq: Number(row.seq),
    at: row.at.toISOString(),
    action: row.action,
    actor:
      row.actor_user_id === null
        ? { kind: 'operator' }
        : row.actor_is_staff && row.actor_email
          ? { kind: 'staff', email: row.actor_email }
          : { kind: 'applicant' },
    detail: row.detail,
  }));
}
