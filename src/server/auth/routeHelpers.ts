import { checkLimitMax } from '../db/rateLimits';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import type { UserRow } from '../db/users';
import { emailError } from '../../shared/rules/email';
import {
  loadCommonPasswords,
  madeOfOwnWords,
  newPasswordError,
  PASSWORD_MESSAGES,
  type PasswordContext,
} from '../../shared/rules/password';
import { badRequest, ClientError } from '../errors';
import { hashPassword, verifyPassword } from './passwords';

/** Per-IP limits (requests per minute) on the calls that send mail or check secrets. */
export const RATE_LIMITS = {
  signup: 5,
  signin: 10,
  /** Sign-ins per IP whatever the email: an office behind one NAT stays well under it. */
  signinPerIp: 30,
  resetRequest: 5,
  reset: 10,
  verify: 10,
  inviteAccept: 10,
  twoFactor: 10,
  /** Calls that ask for the password again (password change, passkeys, 2FA, email). */
  reauth: 10,
  /** Invitations (each sends an email to an address of the caller's choosing). */
  invitesPerUserPerHour: 10,
  invitesPerOrganizationPerDay: 50,
} as const;

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a minute and try again.';

/**
 * Route config for @fastify/rate-limit (registered with `global: false` in app.ts). With
 * `perAccount`, attempts count per IP and email together (checked once the body is parsed), so
 * guessing one account's password is throttled without locking out everyone behind one NAT.
 */
export function perMinute(max: number, options: { perAccount?: boolean } = {}) {
  return {
    rateLimit: {
      max: checkLimitMax(max),
      timeWindow: '1 minute',
      ...(options.perAccount
        ? {
            hook: 'preHandler' as const,
            keyGenerator: (request: FastifyRequest) => {
              const email = (request.body as { email?: unknown } | undefined)?.email;
              return `${request.ip}|${typeof email === 'string' ? email.trim().toLowerCase() : ''}`;
            },
          }
        : {}),
      errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) =>
        new ClientError(
          429,
          TOO_MANY_ATTEMPTS,
          undefined,
          Math.max(1, Math.ceil(context.ttl / 1000)),
        ),
    },
  };
}

/** The answer to any unknown, used, expired or mismatched emailed token. */
export const INVALID_LINK = 'This link is invalid or has expired. Please ask for a new one.';

/** A trimmed email, or a 400 with the specification's message (spec access §5). */
export function checkedEmail(value: string, field = 'email'): string {
  const error = emailError(value);
  if (error) throw badRequest(error, { [field]: error });
  return value.trim();
}

/**
 * The hash of a new password after the server-side checks (spec access §5 and docs/decisions.md,
 * Passwords and sessions: at least 8 characters, not a common password, not made of the account's
 * own words as far as `context` names them), whatever the browser checked.
 */
export async function newPasswordHash(
  password: string,
  cost: number,
  field = 'password',
  context: PasswordContext = {},
): Promise<string> {
  const error = newPasswordError(password, await loadCommonPasswords(), context);
  if (error) throw badRequest(error, { [field]: error });
  return hashPassword(password, cost);
}

/**
 * Refuses a new password made of the account's own words (ASVS 6.2.11) once the account is
 * known: where only a token names it (a reset), this runs after the token is taken, so the
 * answer never tells whether a guessed address belongs to an account.
 */
export function refuseOwnWords(password: string, context: PasswordContext, field = 'password') {
  if (madeOfOwnWords(password, context)) {
    throw badRequest(PASSWORD_MESSAGES.ownWords, { [field]: PASSWORD_MESSAGES.ownWords });
  }
}

/** The words of a stored account a new password must not be made of. */
export function passwordContextOf(row: UserRow): PasswordContext {
  return {
    email: row.email,
    firstName: row.details?.firstName,
    lastName: row.details?.lastName,
    organizationName: row.org_name ?? undefined,
  };
}

/**
 * Re-authentication (ASVS 7.5.1): the signed-in user's password again, before a change to how
 * they sign in. A wrong one answers the specification's 'Password is wrong' on `field`.
 */
export async function confirmPassword(
  app: FastifyInstance,
  row: UserRow,
  password: string,
  request: FastifyRequest,
  field = 'password',
): Promise<void> {
  // Signed in already: their hashing is not a guess from outside, so it goes ahead of the line.
  const matches =
    !!row.password_hash && (await verifyPassword(password, row.password_hash, request.ip, true));
  if (!matches) {
    await recordAuditEvent(app.db, { action: 'reauth.failed', actorUserId: row.id });
    throw badRequest(PASSWORD_MESSAGES.wrong, { [field]: PASSWORD_MESSAGES.wrong });
  }
}
