import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PasskeySigninBody } from '../../shared/api/account';
import {
  authCheckSchema,
  resetBodySchema,
  resetRequestBodySchema,
  signinRequestSchema,
  signupRequestSchema,
  verifyEmailBodySchema,
  verifyEmailCheckBodySchema,
  signinResultSchema,
  type LinkCheck,
  type AuthCheck,
  type ResetBody,
  type ResetRequestBody,
  type SigninRequest,
  type SecondFactor,
  type SigninResult,
  type SignupRequest,
  type VerifyEmailBody,
  type VerifyEmailCheckBody,
} from '../../shared/api/auth';
import { emailError } from '../../shared/rules/email';
import { PASSWORD_MESSAGES } from '../../shared/rules/password';
import { passkeySigninBody } from '../../shared/api/account';
import { verifyCaptcha } from '../auth/captcha';
import { decoyHash, verifyPassword } from '../auth/passwords';
import type { HashTrust } from '../auth/hashThreads';
import {
  checkedEmail,
  INVALID_LINK,
  newPasswordHash,
  passwordContextOf,
  refuseOwnWords,
  perMinute,
  RATE_LIMITS,
  TOO_MANY_ATTEMPTS,
} from '../auth/routeHelpers';
import { passkeySigninOptions, relyingParty } from '../auth/passkeys';
import {
  assertSecondFactorOpen,
  BAD_RECOVERY_CODE,
  BAD_TOTP,
  checkPasskeyAnswer,
  checkRecoveryCode,
  checkTotpCode,
  secondFactorsOf,
  secondStepMethods,
} from '../auth/secondFactor';
import { CHALLENGE_TTL_MS, takeChallenge } from '../db/passkeys';
import { PASSKEY_SIGNIN_COOKIE, signinCookie } from '../plugins/session';
import { emailDigest, recordAuditEvent } from '../audit/recordAuditEvent';
import { enforceLimit } from '../auth/enforceLimit';
import { mayMail } from '../auth/mailCap';
import { consumeAuthToken, issueAuthToken, liveAuthTokenUser } from '../db/tokens';
import { cancelOutstandingLinks } from '../auth/accountLinks';
import { forgetDevices } from '../db/deviceCookies';
import { likelyRightPassword, noteRightPassword } from '../auth/signinHints';
import {
  claimPasswordCheck,
  passwordFailed,
  passwordPassed,
  passwordSubject,
} from '../auth/passwordFailures';
import { withTransaction } from '../db/transaction';
import {
  createUnverifiedUser,
  endAllSessions,
  findUserRowByEmail,
  findUserRowById,
  setPasswordHash,
  setUserDetails,
  setUserOrganization,
  setUserRoles,
  toUser,
  type UserRow,
} from '../db/users';
import { ROLES, type Role } from '../../shared/api/auth';
import { isUuid } from '../../shared/api/http';
import {
  personFileRules,
  withPhotoFieldError,
  personFormOf,
  readPerson,
  readRoles,
  SNAKE_CASE_PARTS,
} from '../auth/personFields';
import { insertUserDocument } from '../db/documents';
import { findOrganization } from '../db/statements';
import { badRequest, ClientError, refusal } from '../errors';
import { discardForm, readMultipartForm, registerMultipartReader } from '../storage/multipartForm';
import {
  accountExistsMessage,
  links,
  resetPasswordMessage,
  verifyEmailMessage,
} from '../mail/templates';

const BAD_CREDENTIALS = 'Invalid email or password.';
const BAD_PASSKEY =
  'The passkey could not be verified. Please sign in again and use your passkey or a code.';
/** Sign-up, sign-in, sign-out, verification, password reset, invitations (spec access §7). */
export async function registerAuthRoutes(
  app: FastifyInstance,
  options: { checkOnly?: boolean },
): Promise<void> {
  await registerMultipartReader(app);
  const rp = relyingParty(app.config.publicUrl);
  app.get('/auth/signin', { schema: { response: { 200: authCheckSchema } } }, async (request) => {
    const userId = await request.sessionUserId();
    const row = userId ? await findUserRowById(app.db, userId) : null;
    const answer: AuthCheck = row
      ? { status: 'Authenticated', isNorthstarClearingStaff: row.is_staff }
      : { status: 'NotAuthenticated' };
    return answer;
  });
  // docs/decisions.md, Paths: /clearing/api/web answers only the sign-in check (and `user`).
  if (options.checkOnly) return;

  app.post<{ Body: SignupRequest }>(
    '/auth/signup',
    { schema: { body: signupRequestSchema }, config: perMinute(RATE_LIMITS.signup) },
    async (request) => {
      const email = checkedEmail(request.body.email);
      if (app.config.recaptchaSecret) {
        const passed =
          !!request.body.recaptchaToken &&
          (await verifyCaptcha({
            verifyUrl: app.config.recaptchaVerifyUrl,
            secret: app.config.recaptchaSecret,
            token: request.body.recaptchaToken,
            action: 'signup',
            remoteIp: request.ip,
          }));
        if (!passed) {
          throw badRequest('The captcha check failed. Please reload the page and try again.');
        }
      }
      // The answer is the same whether or not the email is known (no account disclosure), and
      // so is the work done before it: the lookup and the mail run after the answer is sent.
      app.backgroundJobs.run('signup', () => answerSignup(email));
      return {};
    },
  );

  /** Mails a verification link, or an account-exists notice to a verified account. */
  async function answerSignup(email: string): Promise<void> {
    let row = await findUserRowByEmail(app.db, email);
    if (!row) {
      try {
        const id = await createUnverifiedUser(app.db, email);
        await recordAuditEvent(app.db, { action: 'signup', actorUserId: id });
      } catch (error) {
        if ((error as { code?: string }).code !== '23505') throw error; // a concurrent sign-up
      }
      row = await findUserRowByEmail(app.db, email);
    }
    if (!row) throw new Error('user vanished after sign-up');
    // The requester was answered already, and the same, whether or not this mail goes.
    if (!(await mayMail(app, 'signup', row.email))) return;
    if (row.email_verified_at) {
      await app.mailer.send(accountExistsMessage(row.email, links.signIn(app.config.publicUrl)));
    } else {
      const token = await issueAuthToken(app.db, 'verify-email', row.id);
      const link = links.verifyEmail(app.config.publicUrl, row.email, token);
      await app.mailer.send(verifyEmailMessage(row.email, link));
    }
  }

  app.post<{ Body: VerifyEmailBody }>(
    '/auth/verify-email',
    { schema: { body: verifyEmailBodySchema }, config: perMinute(RATE_LIMITS.verify) },
    async (request, reply) => {
      const { token, password, email } = request.body;
      // The address the link names, given back by the page: the password must not be made of it.
      const passwordHash = await newPasswordHash(password, app.config.passwordCost, 'password', {
        email,
      });
      const userId = await withTransaction(app.db, async (client) => {
        const consumed = await consumeAuthToken(client, 'verify-email', token);
        const row = consumed ? await findUserRowById(client, consumed.userId) : null;
        // Throwing rolls back, so a mismatched email leaves the token as it was.
        if (!row || row.email.toLowerCase() !== email.trim().toLowerCase()) {
          throw badRequest(INVALID_LINK);
        }
        await setPasswordHash(client, row.id, passwordHash, { verify: true });
        await recordAuditEvent(client, { action: 'email.verified', actorUserId: row.id });
        return row.id;
      });
      // This browser has just set the password: its first sign-in is a returning one.
      await reply.rememberDevice(userId);
      return {};
    },
  );

  // Whether the link can still set the password, asked as the verify page opens (issue 38 §4), so
  // a dead link is said at once rather than after a password is typed. Nothing is used up; the
  // answer is one shape for an unknown, expired, used or mismatched link, and the route is
  // limited as the verification itself is.
  app.post<{ Body: VerifyEmailCheckBody }>(
    '/auth/verify-email/check',
    { schema: { body: verifyEmailCheckBodySchema }, config: perMinute(RATE_LIMITS.verify) },
    async (request): Promise<LinkCheck> => {
      const { token, email } = request.body;
      const userId = await liveAuthTokenUser(app.db, 'verify-email', token);
      const row = userId ? await findUserRowById(app.db, userId) : null;
      return { usable: !!row && row.email.toLowerCase() === email.trim().toLowerCase() };
    },
  );

  app.post<{ Body: SigninRequest }>(
    '/auth/signin',
    {
      schema: { body: signinRequestSchema, response: { 200: signinResultSchema } },
      config: perMinute(RATE_LIMITS.signin, { perAccount: true }),
      // Besides per IP+email (the route's config, once the body is parsed): per IP, so a sweep of
      // unknown emails is limited. Checked first, before the body is read: an address over its
      // limit is answered from the counter alone (from this process's memory once it has refused
      // the address in this window: `enforceLimit`), and writes no counter per guessed email.
      onRequest: async (request) =>
        enforceLimit(app.db, {
          key: `signin-ip:${request.ip}`,
          max: RATE_LIMITS.signinPerIp,
          windowMs: 60_000,
          message: TOO_MANY_ATTEMPTS,
        }),
    },
    async (request, reply): Promise<SigninResult> => {
      const { email, password, totpCode, recoveryCode } = request.body;
      if (!password) throw badRequest(PASSWORD_MESSAGES.signinRequired);
      // A browser that signed in to this account before (its device cookie), or a new one giving
      // the password this instance last saw the account sign in with, is hashed first.
      const row = await checkCredentials(email, password, request.ip, request.deviceUserId());
      const methods = await secondFactorsOf(app.db, row);
      if (methods.length > 0) {
        // Counted per account, whatever the address (issue 27 §1): while the account's second
        // factor waits or is locked, even the right password gets the 429 and its time, which
        // says no more than TwoFactorRequired would.
        if (!totpCode && !recoveryCode) {
          await assertSecondFactorOpen(app.db, row.id);
          return secondFactorStep(row, methods, reply);
        }
        if (totpCode && recoveryCode) {
          throw badRequest('Send the code from your app or a recovery code, not both.');
        }
        if (recoveryCode) {
          // In place of a code (issue 38 §4): once each, counted as a code is when wrong.
          const failure = refusal(401, 'invalid_credentials', BAD_RECOVERY_CODE, {
            recoveryCode: BAD_RECOVERY_CODE,
          });
          await checkRecoveryCode(app, row, recoveryCode, failure, request.ip);
          return completeSignin(row, reply, 'recovery-code');
        }
        await checkTotpCode(app, row, totpCode!, refusal(401, 'invalid_credentials', BAD_TOTP));
        return completeSignin(row, reply, 'totp');
      }
      return completeSignin(row, reply, 'password');
    },
  );

  /** The password was right; the account asks for a second factor: a code, or a passkey. */
  async function secondFactorStep(
    row: UserRow,
    factors: SecondFactor[],
    reply: FastifyReply,
  ): Promise<SigninResult> {
    // A code and, while any remain unused, a recovery code; the passkey comes with its options.
    const asked = await secondStepMethods(app.db, row, factors);
    const methods = asked.filter((method) => method !== 'passkey');
    const passkey = await passkeySigninOptions(app.db, rp, row.id);
    if (!passkey) return { authStatus: 'TwoFactorRequired', methods };
    // The waiting challenge is this browser's alone: its handle travels in a short-lived cookie
    // read only by the sign-in routes (signinCookie), never in a page.
    const secure = app.config.publicUrl.startsWith('https://');
    const { name, path } = signinCookie(PASSKEY_SIGNIN_COOKIE, secure);
    reply.setCookie(name, passkey.handle, {
      path,
      httpOnly: true,
      sameSite: 'strict',
      secure,
      maxAge: CHALLENGE_TTL_MS / 1000,
    });
    return {
      authStatus: 'TwoFactorRequired',
      methods: [...methods, 'passkey'],
      passkeyOptions: passkey.options,
    };
  }

  async function completeSignin(
    row: UserRow,
    reply: FastifyReply,
    method: 'password' | 'totp' | 'passkey' | 'recovery-code',
  ): Promise<SigninResult> {
    await reply.startSession(row.id);
    await reply.rememberDevice(row.id);
    await recordAuditEvent(app.db, { action: 'signin', actorUserId: row.id, detail: { method } });
    return { authStatus: 'AuthComplete', user: toUser(row) };
  }

  // The sign-in's second step with a passkey: the answer to the challenge the first step set.
  app.post<{ Body: PasskeySigninBody }>(
    '/auth/signin/passkey',
    {
      schema: { body: passkeySigninBody, response: { 200: signinResultSchema } },
      config: perMinute(RATE_LIMITS.signin),
    },
    async (request, reply): Promise<SigninResult> => {
      const handle = request.cookies[PASSKEY_SIGNIN_COOKIE];
      const secure = app.config.publicUrl.startsWith('https://');
      const { name, path } = signinCookie(PASSKEY_SIGNIN_COOKIE, secure);
      reply.clearCookie(name, { path, httpOnly: true, sameSite: 'strict', secure });
      const waiting = handle ? await takeChallenge(app.db, 'signin', { handle }) : null;
      const row = waiting ? await findUserRowById(app.db, waiting.userId) : null;
      // No challenge waiting: no account to count against, and nothing to guess at.
      if (!row) throw refusal(401, 'invalid_credentials', BAD_PASSKEY);
      // A failed assertion counts against the account as a wrong code does (issue 27 §1).
      await checkPasskeyAnswer(
        app,
        row,
        waiting,
        request.body.response,
        refusal(401, 'invalid_credentials', BAD_PASSKEY),
      );
      return completeSignin(row, reply, 'passkey');
    },
  );

  /** The user whose verified account matches, or a 401 taking the same time for any failure. */
  async function checkCredentials(
    email: string,
    password: string,
    client: string,
    deviceUserId: Promise<string | null>,
  ): Promise<UserRow> {
    const [row, deviceUser] = await Promise.all([
      emailError(email) ? null : findUserRowByEmail(app.db, email),
      deviceUserId,
    ]);
    const usable = row && row.password_hash && row.email_verified_at ? row : null;
    // Counted per account whatever the address, before the hash runs (issue 39 §4): while a new
    // browser's wait or lock runs, even the right password gets the 429. An email naming no
    // account is counted the same way, so the answers never tell the two apart.
    const subject = passwordSubject(app, row, email);
    const failures = await claimPasswordCheck(app, subject, !!row && deviceUser === row.id);
    // An unknown email is checked against a decoy hash, so timing does not tell it apart.
    const hash = usable?.password_hash ?? (await decoyHash(app.config.passwordCost));
    const rightBefore = likelyRightPassword(usable, password);
    const trusted: HashTrust =
      !!usable && deviceUser === usable.id ? true : rightBefore ? 'known-password' : false;
    const matches = await verifyPassword(password, hash, client, trusted);
    if (!usable || !matches) {
      // An email without an account is named by its keyed digest, never written out.
      await recordAuditEvent(app.db, {
        action: 'signin.failed',
        actorUserId: row?.id ?? null,
        detail: row
          ? { reason: usable ? 'password' : 'not-verified', failures }
          : { reason: 'unknown-email', failures, ...emailDigest(app.fieldKeys, email) },
      });
      await passwordFailed(app, row, failures);
      throw refusal(401, 'invalid_credentials', BAD_CREDENTIALS);
    }
    await passwordPassed(app, subject);
    noteRightPassword(usable, password);
    return usable;
  }

  app.post('/auth/signout', async (request, reply) => {
    const userId = await request.sessionUserId();
    await reply.endSession();
    if (userId) await recordAuditEvent(app.db, { action: 'signout', actorUserId: userId });
    return {};
  });

  app.post<{ Body: ResetRequestBody }>(
    '/auth/password/reset/request',
    { schema: { body: resetRequestBodySchema }, config: perMinute(RATE_LIMITS.resetRequest) },
    async (request) => {
      const email = checkedEmail(request.body.email);
      // Same answer, and the same work before it, for every email: only a verified account
      // gets a link, looked up and mailed after the answer is sent.
      app.backgroundJobs.run('password-reset-request', async () => {
        const row = await findUserRowByEmail(app.db, email);
        if (!row?.email_verified_at) return;
        if (!(await mayMail(app, 'reset', row.email))) return;
        const token = await issueAuthToken(app.db, 'reset-password', row.id);
        const link = links.resetPassword(app.config.publicUrl, row.id, token);
        await app.mailer.send(resetPasswordMessage(row.email, link));
        await recordAuditEvent(app.db, { action: 'password.reset-requested', actorUserId: row.id });
      });
      return {};
    },
  );

  app.post<{ Body: ResetBody }>(
    '/auth/password/reset',
    { schema: { body: resetBodySchema }, config: perMinute(RATE_LIMITS.reset) },
    async (request) => {
      const { token, password, userId, endOtherSessions = true } = request.body;
      const passwordHash = await newPasswordHash(password, app.config.passwordCost);
      await withTransaction(app.db, async (client) => {
        const consumed = await consumeAuthToken(client, 'reset-password', token);
        if (!consumed || consumed.userId.toLowerCase() !== userId.toLowerCase()) {
          throw badRequest(INVALID_LINK);
        }
        // Only now is the account known (throwing rolls back: the link stays usable).
        const account = await findUserRowById(client, consumed.userId);
        if (account) refuseOwnWords(password, passwordContextOf(account));
        await setPasswordHash(client, consumed.userId, passwordHash);
        // Every other link of the account goes too, on every instance (issue 39 §2): an email
        // change an intruder started must not survive the owner's reset.
        await cancelOutstandingLinks(client, consumed.userId, 'password.reset');
        // ASVS 7.4.3: the page offers to end every session (ticked unless the user unticks it);
        // the browsers that knew the old password are then no longer trusted to sign in first.
        if (endOtherSessions) {
          await endAllSessions(client, consumed.userId);
          await forgetDevices(client, consumed.userId);
        }
        // Last in the transaction: the audit chain's head row stays locked until the commit.
        await recordAuditEvent(client, {
          action: 'password.reset',
          actorUserId: consumed.userId,
          detail: { endOtherSessions },
        });
      });
      return {};
    },
  );

  registerInviteAccept(app);
}

/**
 * POST auth/invite/accept (form data, spec access §3): the invited person sets a password and
 * their details. The link's token decides the organisation and the roles on offer: the form may
 * choose among the invited roles (or send none to take them all), never add one.
 */
function registerInviteAccept(app: FastifyInstance): void {
  const personForm = personFormOf(app.forms);
  const files = personFileRules(personForm, SNAKE_CASE_PARTS);
  app.post(
    '/auth/invite/accept',
    { config: perMinute(RATE_LIMITS.inviteAccept) },
    async (request, reply) => {
      const form = await readMultipartForm(request, {
        dataDir: app.config.dataDir,
        files,
      }).catch((error: unknown) => {
        throw withPhotoFieldError(error, personForm, SNAKE_CASE_PARTS);
      });
      let userId: string;
      try {
        const token = form.field('access_token');
        const organizationId = form.field('organization_id');
        if (!token || !isUuid(organizationId)) throw badRequest(INVALID_LINK);
        const email = checkedEmail(form.field('email') ?? '');
        // The person form's rules and messages, as the business wizard's user step has them.
        const { details: person, photo } = readPerson(personForm, form, SNAKE_CASE_PARTS);
        const chosen = readRoles(form.all('role'));
        const passwordHash = await newPasswordHash(
          form.field('password_text') ?? '',
          app.config.passwordCost,
          'password_text',
          { email, firstName: person.firstName, lastName: person.lastName },
        );
        userId = await withTransaction(app.db, async (client) => {
          const consumed = await consumeAuthToken(client, 'invite', token);
          const row = consumed ? await findUserRowById(client, consumed.userId) : null;
          if (
            !consumed ||
            !row ||
            consumed.data.organizationId !== organizationId ||
            row.email.toLowerCase() !== email.toLowerCase()
          ) {
            throw badRequest(INVALID_LINK);
          }
          // Accepting is what attaches the account; one already in an organisation (its own
          // registration, say) stays where it is.
          if (row.organization_id && row.organization_id !== organizationId) {
            throw new ClientError(
              409,
              'This account already belongs to an organisation. Please contact support to join another.',
            );
          }
          // Only now is the organisation known to be the link's: the password must not be its name.
          const organization = await findOrganization(client, organizationId);
          refuseOwnWords(
            form.field('password_text') ?? '',
            {
              email,
              firstName: person.firstName,
              lastName: person.lastName,
              organizationName: organization?.name,
            },
            'password_text',
          );
          const offered = invitedRoles(consumed.data.roles);
          if (chosen.some((role) => !offered.includes(role))) {
            throw badRequest('The invitation does not include that role.', { role: 'Not offered' });
          }
          await setPasswordHash(client, row.id, passwordHash, { verify: true });
          await setUserOrganization(client, row.id, organizationId);
          await setUserDetails(client, row.id, {
            firstName: person.firstName!,
            lastName: person.lastName!,
            phoneNumber: person.phoneNumber!,
            approved: false,
          });
          await setUserRoles(client, row.id, chosen.length > 0 ? chosen : offered);
          await insertUserDocument(client, row.id, 'photo-id', photo!);
          await recordAuditEvent(client, { action: 'invite.accepted', actorUserId: row.id });
          return row.id;
        });
      } catch (error) {
        await discardForm(app.config.dataDir, form);
        throw error;
      }
      // Committed: the files are the account's now, and this browser has set its password.
      await reply.rememberDevice(userId);
      return {};
    },
  );
}

function invitedRoles(value: unknown): Role[] {
  if (!Array.isArray(value)) return ['Viewer'];
  return value.filter((role): role is Role => (ROLES as readonly unknown[]).includes(role));
}
