import { recordAuditEvent } from '../audit/recordAuditEvent';
import { cancelAccountLinks } from '../db/tokens';
import type { Queryable } from '../db/transaction';

/** What made the account's outstanding links void (the audit row says which). */
type LinksCancelledBy =
  | 'password.reset'
  | 'password.changed'
  | '2fa.enabled'
  | '2fa.disabled'
  | 'passkey.added'
  | 'passkey.removed'
  | 'email.changed';

/**
 * Voids every emailed link of the account still outstanding (issue 39 §2): a link an intruder
 * asked for while holding the password (an email change above all) must not outlive the owner's
 * recovery. Run inside the transaction of the change itself, so the change and the cancellation
 * land together on every instance (the links live in the database only).
 */
export async function cancelOutstandingLinks(
  client: Queryable,
  userId: string,
  reason: LinksCancelledBy,
): Promise<void> {
  const count = await cancelAccountLinks(client, userId);
  if (count > 0) {
    await recordAuditEvent(client, {
      action: 'links.cancelled',
      actorUserId: userId,
      detail: { count, reason },
    });
  }
}
