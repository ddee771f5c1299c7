/**
 * Separation of duties on organisations (issue 26 §3, issue 39 §3): no member of staff decides on
 * or writes about an organisation they belong to or whose registration they filed. This module
 * is the one place that decides it, for every route that acts on an organisation: the KYC
 * decisions and change requests (admin API and console), participant admission, loading a
 * statement, and an Administrator's settings on the organisation's behalf (invitations, roles).
 * The console asks the same question to leave its buttons out and say why.
 */
import { firm } from '../../shared/config/firm';
import { findOrganizationTies } from '../db/adminQueries';
import type { Queryable } from '../db/transaction';
import { forbidden } from '../errors';

/** What a member of staff would do about the organisation. */
type OrganizationDuty = 'registration' | 'admission' | 'statement' | 'settings';

/** The organisation the act concerns: directly, or through one of its registrations. */
type Subject = { organizationId: string } | { registrationId: string };

/** What the refused member of staff may not do, and who must do it instead. */
const DUTY_WORDING: Record<OrganizationDuty, string> = {
  registration:
    'you cannot decide on it: another reviewer must approve, reject or request changes.',
  admission: 'you cannot decide on its admission as a clearing participant: another reviewer must.',
  statement: 'you cannot load its clearing statement: another member of staff must.',
  settings: `as ${firm.displayName} staff you cannot invite people or set roles on its behalf: another Administrator of the organisation must.`,
};

/**
 * Why `staffId` may not do `duty` about the subject's organisation, or null when they may. The
 * sentence is the 403's `errorMessage` and what the console shows in place of its buttons.
 */
export async function ownOrganizationRefusal(
  db: Queryable,
  duty: OrganizationDuty,
  subject: Subject,
  staffId: string,
): Promise<string | null> {
  const ties = await findOrganizationTies(db, subject, staffId);
  if (!ties) return null; // an unknown registration: the act answers 404 itself
  const onRegistration = duty === 'registration';
  let who: string;
  if (ties.filedThis) who = 'You filed this registration';
  else if (ties.member) {
    who = onRegistration
      ? 'This registration is of your own organisation'
      : 'This organisation is your own';
  } else if (ties.filed) {
    who = onRegistration
      ? 'You filed a registration of this organisation'
      : 'You filed this organisation’s registration';
  } else return null;
  return `${who}, so ${DUTY_WORDING[duty]}`;
}

/**
 * Refuses (403, the sentence above) a member of staff's act about their own organisation. The
 * operator's command line (`staffId` null) acts for the firm and is never refused.
 */
export async function refuseOwnOrganization(
  db: Queryable,
  duty: OrganizationDuty,
  subject: Subject,
  staffId: string | null,
): Promise<void> {
  if (!staffId) return;
  const refusal = await ownOrganizationRefusal(db, duty, subject, staffId);
  if (refusal) throw forbidden(refusal);
}
