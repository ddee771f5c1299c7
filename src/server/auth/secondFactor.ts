import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SecondFactor } from '../../shared/api/auth';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { listPasskeys, takeChallenge } from '../db/passkeys';
import {
  countUnusedRecoveryCodes,
  spendRecoveryCode,
  unusedRecoveryCodeHashes,
} from '../db/recoveryCodes';
import type { Queryable } from '../db/transaction';
import {
  acceptTotpStep,
  claimSecondFactorAttempt,
  findSecondFactorBlock,
  lastTotpStep,
  resetSecondFactorFailures,
  type UserRow,
} from '../db/users';
import { badRequest, ClientError, refusal } from '../errors';
import { links, recoveryCodeUsedMessage, secondFactorLockedMessage } from '../mail/templates';
import { readableMoment, secondsUntil, waitWords } from './failureWaits';
import { relyingParty, verifyPasskeyAnswer } from './passkeys';
import { matchRecoveryCode } from './recoveryCodes';
import { confirmPassword } from './routeHelpers';
import { matchTotp } from './totp';

/**
 * Failed second-factor attempts, counted per account whatever the address (NIST SP 800-63B-4
 * §3.2.2, issue 27 §1), in the users row so every instance shares the count. A success resets it.
 *
 * The numbers: the first four failures in a row are answered at once (a typo, a code read as it
 * changed). From the fifth, the next attempt waits, twice as long each time: 30 s, 1, 2, 4, 8 min.
 * The tenth locks the second factor for an hour and mails the owner; each further failure locks it
 * again, twice as long, up to a day. A real owner meets the wait only after several slips and is
 * back within the hour; a guesser who knows the password gets 14 guesses in the first day and one
 * a day after that (each guess at a 6-digit code with one step of drift is 3 in a million).
 * NIST's cap holds as a cap: the 100th failure in a row locks the second factor until the password
 * is reset (whoever guesses that long holds the password; a reset takes it away and starts the
 * count again), so no account ever takes a 101st consecutive guess.
 */
const SECOND_FACTOR_LIMITS = {
  /** Failures in a row answered at once. */
  freeFailures: 4,
  /** The failure that locks the second factor and mails the owner. */
  lockAt: 10,
  /** The failure that locks it until the password is reset (NIST SP 800-63B-4: at most 100). */
  capAt: 100,
} as const;

export const SECOND_FACTOR_CAPPED =
  'Two-factor sign-in is locked after too many failed attempts. Reset your password to unlock it.';

/** Seconds before the next attempt after the nth failure in a row (1-based); the last beyond. */
export const WAIT_AFTER_FAILURE_SECONDS = [
  0, 0, 0, 0, 30, 60, 120, 240, 480, 3_600, 7_200, 14_400, 28_800, 57_600, 86_400,
] as const;

export const BAD_TOTP = 'The two-factor code is not right. Please try again with a new code.';
export const BAD_RECOVERY_CODE =
  'That recovery code is not right, or it was used already. Each code works once.';
export const SECOND_FACTOR_NEEDED =
  'Two-factor authentication is on for your account: confirm with a code from your authenticator app or with your passkey.';
const BAD_PASSKEY_REAUTH = 'The passkey could not be verified. Please try again.';

/** The 429 for an attempt that came before its wait ended; says when to try again. */
function waitError(failures: number, blockedUntil: Date): ClientError {
  const seconds = secondsUntil(blockedUntil);
  const message =
    failures >= SECOND_FACTOR_LIMITS.lockAt
      ? `Two-factor sign-in is locked after too many failed attempts. Please try again after ${readableMoment(blockedUntil)}.`
      : `Too many failed two-factor attempts. Please wait ${waitWords(seconds)} and try again.`;
  return new ClientError(429, message, undefined, seconds);
}

/**
 * Refuses with 429 while the account's second factor waits or is locked, and with 403 once its
 * failures reached the cap (no wait ends that: a password reset does).
 */
export async function assertSecondFactorOpen(db: Queryable, userId: string): Promise<void> {
  const row = await findSecondFactorBlock(db, userId, SECOND_FACTOR_LIMITS.capAt);
  if (row && row.failures >= SECOND_FACTOR_LIMITS.capAt) {
    throw refusal(403, 'signin_locked', SECOND_FACTOR_CAPPED);
  }
  if (row) throw waitError(row.failures, row.blockedUntil);
}

/**
 * Counts an attempt as a failure before it is checked (a success takes it back), with the wait
 * that failure brings; refuses with 429 while a wait runs. Counting first means guesses sent in
 * parallel each take their own place in the count: none slips past the wait by arriving together.
 */
async function claimAttempt(db: Queryable, userId: string): Promise<number> {
  const claimed = await claimSecondFactorAttempt(
    db,
    userId,
    WAIT_AFTER_FAILURE_SECONDS,
    SECOND_FACTOR_LIMITS.capAt,
  );
  if (claimed !== null) return claimed;
  await assertSecondFactorOpen(db, userId);
  // The wait ended between the two statements: the next attempt is free to try again.
  throw new ClientError(429, 'Please try again.', undefined, 1);
}

/**
 * Runs one second-factor check under the account's count: 429 while a wait runs; a pass resets
 * the count; a failure stays counted, is audited, mails the owner once when it locks the second
 * factor, and throws `failure`.
 */
async function checkedAttempt(
  app: FastifyInstance,
  row: UserRow,
  check: () => Promise<boolean>,
  failure: ClientError,
  reason: 'totp' | 'passkey' | 'recovery-code',
): Promise<void> {
  const failures = await claimAttempt(app.db, row.id);
  if (await check()) {
    await resetSecondFactorFailures(app.db, row.id);
    return;
  }
  await recordAuditEvent(app.db, {
    action: 'signin.failed',
    actorUserId: row.id,
    detail: { reason, failures },
  });
  // Exactly one attempt's count is the lock's (the update is atomic): one email per lock streak.
  if (failures === SECOND_FACTOR_LIMITS.lockAt) {
    const seconds = WAIT_AFTER_FAILURE_SECONDS[failures - 1]!;
    const until = readableMoment(new Date(Date.now() + seconds * 1000));
    await recordAuditEvent(app.db, { action: '2fa.locked', actorUserId: row.id });
    app.backgroundJobs.run('second-factor-locked', () =>
      app.mailer.send(
        secondFactorLockedMessage(row.email, until, links.signIn(app.config.publicUrl)),
      ),
    );
  }
  if (failures === SECOND_FACTOR_LIMITS.capAt) {
    await recordAuditEvent(app.db, {
      action: '2fa.locked',
      actorUserId: row.id,
      detail: { untilPasswordReset: true },
    });
  }
  throw failure;
}

/** Checks a TOTP code (once per time step, RFC 6238) under the account's count. */
export async function checkTotpCode(
  app: FastifyInstance,
  row: UserRow,
  code: string,
  failure: ClientError,
): Promise<void> {
  await checkedAttempt(
    app,
    row,
    async () => {
      const totp = row.totp_enabled && !!row.totp_secret;
      const step = totp ? matchTotp(row.totp_secret!, code, lastTotpStep(row)) : null;
      return step !== null && (await acceptTotpStep(app.db, row.id, step));
    },
    failure,
    'totp',
  );
}

/**
 * Checks a recovery code under the account's count, as a code is (issue 38 §4): a match is spent
 * at once (one conditional update, so two requests sending it together cannot both pass), audited
 * with how many remain, and the owner is told by email. A used code never matches again.
 */
export async function checkRecoveryCode(
  app: FastifyInstance,
  row: UserRow,
  code: string,
  failure: ClientError,
  client: string,
): Promise<void> {
  let remaining: number | null = null;
  await checkedAttempt(
    app,
    row,
    async () => {
      const hash = await matchRecoveryCode(
        code,
        await unusedRecoveryCodeHashes(app.db, row.id),
        client,
      );
      remaining = hash ? await spendRecoveryCode(app.db, row.id, hash) : null;
      return remaining !== null;
    },
    failure,
    'recovery-code',
  );
  const left = remaining ?? 0;
  await recordAuditEvent(app.db, {
    action: '2fa.recovery-code-used',
    actorUserId: row.id,
    detail: { remaining: left },
  });
  app.backgroundJobs.run('recovery-code-used', () =>
    app.mailer.send(recoveryCodeUsedMessage(row.email, left, links.profile(app.config.publicUrl))),
  );
}

/** Checks a passkey's answer to a challenge taken for the user, under the account's count. */
export async function checkPasskeyAnswer(
  app: FastifyInstance,
  row: UserRow,
  waiting: { userId: string; challenge: string } | null,
  response: AuthenticationResponseJSON,
  failure: ClientError,
): Promise<void> {
  const rp = relyingParty(app.config.publicUrl);
  await checkedAttempt(
    app,
    row,
    async () => !!waiting && (await verifyPasskeyAnswer(app.db, rp, waiting, response)),
    failure,
    'passkey',
  );
}

/** The second factors the account has: an authenticator app, passkeys, both or none. */
export async function secondFactorsOf(db: Queryable, row: UserRow): Promise<SecondFactor[]> {
  const methods: SecondFactor[] = row.totp_enabled && row.totp_secret ? ['totp'] : [];
  if ((await listPasskeys(db, row.id)).length > 0) methods.push('passkey');
  return methods;
}

/**
 * What a second step may be answered with: the account's factors and, while it has unused
 * recovery codes, `recoveryCode` (told only to whoever gave the right password).
 */
export async function secondStepMethods(
  db: Queryable,
  row: UserRow,
  factors: SecondFactor[],
): Promise<SecondFactor[]> {
  if (factors.length === 0) return factors;
  return (await countUnusedRecoveryCodes(db, row.id)) > 0 ? [...factors, 'recovery_code'] : factors;
}

/** What a sensitive change sends to prove it is the owner (issue 27 §2). */
interface IdentityProof {
  password: string;
  totpCode?: string | undefined;
  /** One of the account's recovery codes, in place of a code (issue 38 §4). */
  recoveryCode?: string | undefined;
  passkey?: AuthenticationResponseJSON | undefined;
}

/**
 * Re-authentication before a sensitive change (ASVS 7.5.1; NIST SP 800-63B-4 AAL2): the password
 * again and, when the account has a second factor, a current one too (a code, or a passkey's
 * answer to the challenge `user/reauth/passkey-options` gave, or a recovery code). The password
 * alone then gets 403 naming the factors to use (`errors.secondFactor`: `totp`, `passkey` or
 * both, and `recovery_code` while unused codes remain).
 */
export async function confirmIdentity(
  app: FastifyInstance,
  row: UserRow,
  proof: IdentityProof,
  request: FastifyRequest,
  passwordField = 'password',
): Promise<void> {
  await confirmPassword(app, row, proof.password, request, passwordField);
  const methods = await secondFactorsOf(app.db, row);
  if (methods.length === 0) return;
  if (proof.passkey) {
    const waiting = await takeChallenge(app.db, 'reauth', { userId: row.id });
    return checkPasskeyAnswer(app, row, waiting, proof.passkey, badRequest(BAD_PASSKEY_REAUTH));
  }
  if (proof.totpCode) {
    return checkTotpCode(app, row, proof.totpCode, badRequest(BAD_TOTP, { totpCode: BAD_TOTP }));
  }
  if (proof.recoveryCode) {
    const failure = badRequest(BAD_RECOVERY_CODE, { recoveryCode: BAD_RECOVERY_CODE });
    return checkRecoveryCode(app, row, proof.recoveryCode, failure, request.ip);
  }
  await assertSecondFactorOpen(app.db, row.id);
  const asked = await secondStepMethods(app.db, row, methods);
  throw refusal(403, 'second_factor_required', SECOND_FACTOR_NEEDED, {
    secondFactor: asked.join(' '),
  });
}
