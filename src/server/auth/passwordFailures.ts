import type { FastifyInstance } from 'fastify';
import { emailDigest, recordAuditEvent } from '../audit/recordAuditEvent';
import {
  accountSubject,
  addressSubject,
  claimPasswordAttempt,
  clearPasswordFailures,
  findPasswordFailures,
} from '../db/passwordFailures';
import type { UserRow } from '../db/users';
import { ClientError, refusal } from '../errors';
import { links, passwordLockedMessage } from '../mail/templates';
import { readableMoment, secondsUntil, waitWords } from './failureWaits';

/**
 * Wrong passwords counted per account, whatever the address (NIST SP 800-63B-4 §3.2.2: at most
 * 100 consecutive failures on one account; issue 39 §4), in PostgreSQL so every instance shares
 * the count, as the second factor's failures are (secondFactor.ts). A right password clears it,
 * and so does any new password (a reset).
 *
 * The numbers: the first ten failures in a row are answered at once (typos, an old password
 * remembered). From the eleventh, the next attempt waits, twice as long each time: 30 s, 1, 2, 4,
 * 8 min. The sixteenth locks sign-in for an hour and mails the owner; each further failure locks
 * it again, twice as long, up to a day. A guesser gets about 20 passwords in the first day and one
 * a day after that. The 100th failure in a row locks sign-in until the password is reset, so no
 * account takes a 101st consecutive guess.
 *
 * The owner is not locked out by someone who does not know the password:
 * - the waits and the lock hold only for browsers that never signed in to the account: a browser
 *   holding the account's device cookie (plugins/session.ts) is counted but never waits, and its
 *   right password clears the count. Only the cap at 100 refuses it too, and the owner's own sign-in
 *   from such a browser starts the count again long before a guesser held to one a day gets there;
 * - a new browser is let in again by a password reset ("Forgot Password"), which needs the mailbox;
 * - an email that names no account is counted the same way under its keyed digest, so the waits,
 *   the lock, the cap and their answers are the same for both, and a lock tells nothing about
 *   whether an account exists.
 */
const PASSWORD_LIMITS = {
  /** The failure that locks sign-in from new browsers and mails the owner. */
  lockAt: 16,
  /** The failure that locks it until the password is reset (NIST SP 800-63B-4: at most 100). */
  capAt: 100,
} as const;

/** Seconds before a new browser's next attempt after the nth failure in a row; the last beyond. */
const WAIT_AFTER_PASSWORD_FAILURE_SECONDS = [
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 30, 60, 120, 240, 480, 3_600, 7_200, 14_400, 28_800, 57_600, 86_400,
] as const;

export const PASSWORD_SIGNIN_CAPPED =
  'Sign-in is locked after too many failed attempts. Reset your password with Forgot Password to unlock it.';

/** Whose count a sign-in attempt is: the account the email names, else the email's digest. */
export function passwordSubject(app: FastifyInstance, row: UserRow | null, email: string): string {
  return row
    ? accountSubject(row.id)
    : addressSubject(emailDigest(app.fieldKeys, email).emailDigest);
}

/** The 429 for an attempt that came before its wait ended; says when to try again. */
function waitError(failures: number, blockedUntil: Date): ClientError {
  const seconds = secondsUntil(blockedUntil);
  const message =
    failures >= PASSWORD_LIMITS.lockAt
      ? `Sign-in is locked after too many failed attempts. Please try again after ${readableMoment(blockedUntil)}, or reset your password with Forgot Password.`
      : `Too many failed sign-in attempts. Please wait ${waitWords(seconds)} and try again, or reset your password with Forgot Password.`;
  return new ClientError(429, message, undefined, seconds);
}

/**
 * Counts a sign-in attempt as a failure before its password is hashed (a right password takes it
 * back): 429 while a wait runs (unless `knownBrowser`: the account's device cookie), 403 at the
 * cap. Counting first means guesses sent together each take their own place in the count.
 * Returns the count, this attempt included.
 */
export async function claimPasswordCheck(
  app: FastifyInstance,
  subject: string,
  knownBrowser: boolean,
): Promise<number> {
  const claimed = await claimPasswordAttempt(
    app.db,
    subject,
    WAIT_AFTER_PASSWORD_FAILURE_SECONDS,
    PASSWORD_LIMITS.capAt,
    knownBrowser,
  );
  if (claimed !== null) return claimed;
  const count = await findPasswordFailures(app.db, subject);
  if (count && count.failures >= PASSWORD_LIMITS.capAt) {
    throw refusal(403, 'signin_locked', PASSWORD_SIGNIN_CAPPED);
  }
  if (count?.blockedUntil && count.blockedUntil.getTime() > Date.now()) {
    throw waitError(count.failures, count.blockedUntil);
  }
  // The wait ended (or a right password cleared the count) between the two statements.
  throw new ClientError(429, 'Please try again.', undefined, 1);
}

/** A right password: the count starts again. */
export async function passwordPassed(app: FastifyInstance, subject: string): Promise<void> {
  await clearPasswordFailures(app.db, subject);
}

/**
 * A wrong password stays counted; the failure that locks sign-in mails the owner of a verified
 * account once (the update is atomic, so exactly one attempt holds that count), and the lock and
 * the cap are audited.
 */
export async function passwordFailed(
  app: FastifyInstance,
  owner: UserRow | null,
  failures: number,
): Promise<void> {
  if (!owner) return;
  if (failures === PASSWORD_LIMITS.lockAt) {
    const seconds = WAIT_AFTER_PASSWORD_FAILURE_SECONDS[failures - 1]!;
    await recordAuditEvent(app.db, { action: 'signin.locked', actorUserId: owner.id });
    if (owner.email_verified_at) {
      const until = readableMoment(new Date(Date.now() + seconds * 1000));
      app.backgroundJobs.run('password-locked', () =>
        app.mailer.send(
          passwordLockedMessage(owner.email, until, links.signIn(app.config.publicUrl)),
        ),
      );
    }
  }
  if (failures === PASSWORD_LIMITS.capAt) {
    await recordAuditEvent(app.db, {
      action: 'signin.locked',
      actorUserId: owner.id,
      detail: { untilPasswordReset: true },
    });
  }
}
