import { listRegistrationAuditRows } from '../db/auditLog';
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
  const rows = await listRegistrationAuditRows(db, registrationId, REGISTRATION_AUDIT_LIMIT);
  return rows.map((row) => ({
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
