import { findApplication } from '../db/applications';
import type { Queryable } from '../db/transaction';
import { ChangeRefusedError } from '../errors';
import { recordAuditEvent } from './recordAuditEvent';

/** Where a change-mode refusal happened: the applicant's save, upload, removal or resubmission. */
type RefusedBy = 'save' | 'upload' | 'removal' | 'resubmission';

/**
 * Runs `work` (which may hold its own transaction) and, when it refuses a change outside the
 * change request, writes that refusal to the audit trail on `db` after the work's transaction
 * rolled back (the refusal stores nothing else), then refuses as before.
 */
export async function auditingChangeRefusals<T>(
  db: Queryable,
  who: { userId: string; formId: string; via: RefusedBy; registrationId?: string | null },
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ChangeRefusedError) {
      const application = await findApplication(db, who.userId, who.formId);
      await recordAuditEvent(db, {
        action: 'application.change-refused',
        actorUserId: who.userId,
        registrationId: who.registrationId ?? application?.changeRequest?.registrationId ?? null,
        detail: {
          formId: who.formId,
          ...(application ? { applicationId: application.id } : {}),
          field: error.pointer,
          via: who.via,
        },
      });
    }
    throw error;
  }
}
