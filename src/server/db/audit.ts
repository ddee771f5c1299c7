import type { Queryable } from './transaction';

/** The actions the audit log records. */
export type AuditAction =
  | 'signup'
  | 'signin'
  | 'signin.failed'
  | 'signout'
  | 'email.verified'
  | 'password.reset-requested'
  | 'password.reset'
  | '2fa.enrolment-started'
  | '2fa.enabled'
  | '2fa.disabled'
  | 'passkey.added'
  | 'passkey.removed'
  | 'password.changed'
  | 'sessions.ended'
  | 'reauth.failed'
  | 'email.change-requested'
  | 'email.changed'
  | 'settings.add_kyc'
  | 'settings.modify_kyc'
  | 'settings.invite_user'
  | 'settings.set_roles'
  | 'settings.mark_tutorial_complete'
  | 'invite.accepted'
  | 'registration.user'
  | 'registration.submitted'
  | 'registration.resubmitted'
  // Staff review (admin API, staff console, operator CLI).
  | 'admin.api'
  | 'admin.verification-email'
  | 'registration.viewed'
  | 'registration.revealed'
  | 'registration.document-downloaded'
  | 'registration.approved'
  | 'registration.rejected'
  | 'registration.changes-requested'
  | 'user.approved'
  | 'organization.participant-approved'
  | 'organization.participant-rejected'
  | 'statement.loaded'
  | 'staff.created';

/**
 * Appends an audit row. Rows name users only by id: never an email, a name, a token or a code,
 * and no IP address, so the log itself holds no personal data beyond the user id.
 */
export async function audit(
  db: Queryable,
  entry: {
    action: AuditAction;
    actorUserId: string | null;
    /** The user acted upon, when not the actor (an id, never an email). */
    subjectUserId?: string | null;
    detail?: Record<string, string | number | boolean | string[]>;
  },
): Promise<void> {
  await db.query(
    'insert into audit_log (actor_user_id, action, subject, detail) values ($1, $2, $3, $4)',
    [entry.actorUserId, entry.action, entry.subjectUserId ?? null, entry.detail ?? {}],
  );
}
