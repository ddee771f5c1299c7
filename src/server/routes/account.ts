import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  ChangeEmailBody,
  ChangePasswordBody,
  ConfirmEmailBody,
  IdentityConfirmation,
  PasskeyCreationOptions,
  PasskeyRegistrationBody,
  PasswordConfirmation,
  Profile,
  SessionList,
  SessionsEnded,
} from '../../shared/api/account';
import {
  changeEmailBody,
  changePasswordBody,
  confirmEmailBody,
  identityConfirmationBody,
  passkeyRegistrationBody,
  passwordConfirmationBody,
} from '../../shared/api/account';
import { UUID_PATTERN } from '../../shared/api/http';
import {
  passkeyReauthOptions,
  passkeyRegistrationOptions,
  registerPasskey,
  relyingParty,
} from '../auth/passkeys';
import { confirmIdentity, secondFactorsOf } from '../auth/secondFactor';
import { hashRecoveryCodes, newRecoveryCodes } from '../auth/recoveryCodes';
import {
  countUnusedRecoveryCodes,
  replaceRecoveryCodes,
  voidRecoveryCodesWithoutFactor,
} from '../db/recoveryCodes';
import type { RecoveryCodes } from '../../shared/api/auth';
import {
  checkedEmail,
  confirmPassword,
  INVALID_LINK,
  newPasswordHash,
  passwordContextOf,
  perMinute,
  RATE_LIMITS,
} from '../auth/routeHelpers';
import { cancelOutstandingLinks } from '../auth/accountLinks';
import { ipPlacesFor } from '../auth/ipPlaces';
import { describeDevice, describePlace } from '../auth/sessionDevice';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { forgetDevices } from '../db/deviceCookies';
import { deletePasskey, listPasskeys } from '../db/passkeys';
import { endOtherSessions, endSessionById, listLiveSessions } from '../db/sessions';
import { withTransaction } from '../db/transaction';
import { consumeAuthToken, issueAuthToken } from '../db/tokens';
import {
  findUserRowByEmail,
  findUserRowById,
  setPasswordHash,
  setUserEmail,
  type UserRow,
} from '../db/users';
import {
  confirmEmailMessage,
  emailChangeNoticeMessage,
  emailInUseMessage,
  links,
} from '../mail/templates';
import { badRequest, ClientError, notFound, unauthorized } from '../errors';

/**
 * The profile page's calls (docs/decisions.md, The profile page): who the user is, their password,
 * passkeys and active sessions. What changes how the user signs in asks for the password again
 * (ASVS 7.5.1) and, when the account has one, a current second factor (issue 27 §2:
 * `confirmIdentity`); a password change offers to end the other sessions (ASVS 7.4.3).
 */
export async function registerAccountRoutes(app: FastifyInstance): Promise<void> {
  const rp = relyingParty(app.config.publicUrl);
  // Opened on the first session list, then kept for the process (an offline file, no network).
  const places = ipPlacesFor(app.config.sessionPlaceDatabase, app.log);
  // Every call here is the signed-in user's: a signed-out one gets 401 before its body is read.
  app.addHook('onRequest', async (request) => {
    await request.requireUserId();
  });

  const currentRow = async (request: FastifyRequest): Promise<UserRow> => {
    const row = await findUserRowById(app.db, await request.requireUserId());
    if (!row) throw unauthorized();
    return row;
  };

  app.get('/user/profile', async (request): Promise<Profile> => {
    const row = await currentRow(request);
    const passkeys = await listPasskeys(app.db, row.id);
    return {
      email: row.email,
      firstName: row.details?.firstName ?? null,
      lastName: row.details?.lastName ?? null,
      totpEnabled: row.totp_enabled,
      recoveryCodesLeft: await countUnusedRecoveryCodes(app.db, row.id),
      passkeys: passkeys.map((passkey) => ({
        id: passkey.id,
        name: passkey.name,
        createdAt: passkey.created_at.toISOString(),
        lastUsedAt: passkey.last_used_at?.toISOString() ?? null,
      })),
    };
  });

  app.get('/user/sessions', async (request): Promise<SessionList> => {
    const row = await currentRow(request);
    const sessions = await listLiveSessions(app.db, row.id, request.sessionIdHash());
    return {
      sessions: await Promise.all(
        sessions.map(async (session) => ({
          id: session.public_id,
          current: session.current,
          device: describeDevice(session.user_agent),
          place: await describePlace(session.ip, places),
          signedInAt: session.created_at.toISOString(),
          lastSeenAt: session.last_seen_at.toISOString(),
        })),
      ),
      placesAttribution: places.attribution,
    };
  });

  /** Ending a session or removing a passkey: its id in the path, the password again in the body. */
  const byIdWithPassword = {
    schema: {
      params: {
        type: 'object',
        properties: { id: { type: 'string', pattern: UUID_PATTERN } },
        required: ['id'],
      },
      body: passwordConfirmationBody,
    },
    config: perMinute(RATE_LIMITS.reauth),
  };

  // Viewing sessions needs the session; ending one needs the password again (ASVS 7.5.2), so a
  // borrowed, still signed-in browser cannot throw the owner out of their other sessions.
  app.delete<{ Params: { id: string }; Body: PasswordConfirmation }>(
    '/user/sessions/:id',
    byIdWithPassword,
    async (request): Promise<SessionsEnded> => {
      const row = await currentRow(request);
      const current = await listLiveSessions(app.db, row.id, request.sessionIdHash());
      if (current.some((session) => session.current && session.public_id === request.params.id)) {
        throw badRequest('This is the session you are using. Use Logout to end it.');
      }
      await confirmPassword(app, row, request.body.password, request);
      const ended = await withTransaction(app.db, async (client) => {
        if (!(await endSessionById(client, row.id, request.params.id))) return false;
        await recordAuditEvent(client, {
          action: 'sessions.ended',
          actorUserId: row.id,
          detail: { count: 1 },
        });
        return true;
      });
      if (!ended) throw notFound('That session has already ended.');
      return { endedSessions: 1 };
    },
  );

  app.post<{ Body: PasswordConfirmation }>(
    '/user/sessions/end-others',
    { schema: { body: passwordConfirmationBody }, config: perMinute(RATE_LIMITS.reauth) },
    async (request): Promise<SessionsEnded> => {
      const row = await currentRow(request);
      await confirmPassword(app, row, request.body.password, request);
      const endedSessions = await endOthers(row.id, request);
      return { endedSessions };
    },
  );

  /** Ends every other session of the user, recorded in the audit log when there were any. */
  async function endOthers(userId: string, request: FastifyRequest): Promise<number> {
    return withTransaction(app.db, async (client) => {
      const count = await endOtherSessions(client, userId, request.sessionIdHash());
      if (count > 0) {
        await recordAuditEvent(client, {
          action: 'sessions.ended',
          actorUserId: userId,
          detail: { count },
        });
      }
      return count;
    });
  }

  app.post<{ Body: ChangePasswordBody }>(
    '/user/password',
    { schema: { body: changePasswordBody }, config: perMinute(RATE_LIMITS.reauth) },
    async (request, reply): Promise<SessionsEnded> => {
      const row = await currentRow(request);
      const { currentPassword, newPassword, endOtherSessions: endOthersToo } = request.body;
      await confirmIdentity(
        app,
        row,
        { ...request.body, password: currentPassword },
        request,
        'currentPassword',
      );
      const passwordHash = await newPasswordHash(
        newPassword,
        app.config.passwordCost,
        'newPassword',
        passwordContextOf(row),
      );
      const endedSessions = await withTransaction(app.db, async (client) => {
        await setPasswordHash(client, row.id, passwordHash);
        // A reset link or an email change asked for before the change dies with the old password.
        await cancelOutstandingLinks(client, row.id, 'password.changed');
        await recordAuditEvent(client, {
          action: 'password.changed',
          actorUserId: row.id,
          detail: { endOtherSessions: endOthersToo },
        });
        if (!endOthersToo) return 0;
        // Other browsers are no longer trusted to sign in first either; this one is given a new
        // device cookie below.
        await forgetDevices(client, row.id);
        const count = await endOtherSessions(client, row.id, request.sessionIdHash());
        if (count > 0) {
          await recordAuditEvent(client, {
            action: 'sessions.ended',
            actorUserId: row.id,
            detail: { count },
          });
        }
        return count;
      });
      if (endOthersToo) await reply.rememberDevice(row.id);
      return { endedSessions };
    },
  );

  // A passkey's answer to a re-authentication (issue 27 §2): the challenge waits for this user.
  app.post(
    '/user/reauth/passkey-options',
    { config: perMinute(RATE_LIMITS.reauth) },
    async (request): Promise<PublicKeyCredentialRequestOptionsJSON> => {
      const row = await currentRow(request);
      const options = await passkeyReauthOptions(app.db, rp, row.id);
      if (!options) throw badRequest('Your account has no passkey. Use the code from your app.');
      return options;
    },
  );

  app.post<{ Body: IdentityConfirmation }>(
    '/user/passkeys/options',
    { schema: { body: identityConfirmationBody }, config: perMinute(RATE_LIMITS.reauth) },
    async (request): Promise<PasskeyCreationOptions> => {
      const row = await currentRow(request);
      await confirmIdentity(app, row, request.body, request);
      return passkeyRegistrationOptions(app.db, rp, row);
    },
  );

  app.post<{ Body: PasskeyRegistrationBody }>(
    '/user/passkeys',
    { schema: { body: passkeyRegistrationBody }, config: perMinute(RATE_LIMITS.twoFactor) },
    async (request): Promise<Profile['passkeys'][number]> => {
      const row = await currentRow(request);
      const name = request.body.name.trim() || 'Passkey';
      const id = await registerPasskey(app.db, rp, row.id, request.body.response, name);
      if (!id) {
        throw badRequest(
          'The passkey could not be added. Please confirm your password and try again.',
        );
      }
      await withTransaction(app.db, async (client) => {
        await cancelOutstandingLinks(client, row.id, 'passkey.added');
        await recordAuditEvent(client, { action: 'passkey.added', actorUserId: row.id });
      });
      const added = (await listPasskeys(app.db, row.id)).find((passkey) => passkey.id === id)!;
      return {
        id,
        name: added.name,
        createdAt: added.created_at.toISOString(),
        lastUsedAt: null,
      };
    },
  );

  app.delete<{ Params: { id: string }; Body: IdentityConfirmation }>(
    '/user/passkeys/:id',
    { ...byIdWithPassword, schema: { ...byIdWithPassword.schema, body: identityConfirmationBody } },
    async (request): Promise<Record<string, never>> => {
      const row = await currentRow(request);
      await confirmIdentity(app, row, request.body, request);
      const removed = await withTransaction(app.db, async (client) => {
        if (!(await deletePasskey(client, row.id, request.params.id))) return false;
        await voidRecoveryCodesWithoutFactor(client, row.id);
        await cancelOutstandingLinks(client, row.id, 'passkey.removed');
        await recordAuditEvent(client, { action: 'passkey.removed', actorUserId: row.id });
        return true;
      });
      if (!removed) throw notFound('That passkey has already been removed.');
      return {};
    },
  );

  // A new set of recovery codes (issue 38 §4): the old set stops working. Like every change of
  // how the account signs in, it asks for the password and a current second factor (a code, a
  // passkey, or one of the old recovery codes).
  app.post<{ Body: IdentityConfirmation }>(
    '/user/2fa/recovery-codes',
    { schema: { body: identityConfirmationBody }, config: perMinute(RATE_LIMITS.reauth) },
    async (request): Promise<RecoveryCodes> => {
      const row = await currentRow(request);
      if ((await secondFactorsOf(app.db, row)).length === 0) {
        throw new ClientError(
          409,
          'Turn on two-factor authentication first: recovery codes stand in for a second factor.',
        );
      }
      await confirmIdentity(app, row, request.body, request);
      const recoveryCodes = newRecoveryCodes();
      const hashes = await hashRecoveryCodes(recoveryCodes, app.config.passwordCost, request.ip);
      await withTransaction(app.db, async (client) => {
        await replaceRecoveryCodes(client, row.id, hashes);
        await recordAuditEvent(client, {
          action: '2fa.recovery-codes-issued',
          actorUserId: row.id,
          detail: { count: recoveryCodes.length },
        });
      });
      return { recoveryCodes };
    },
  );

  // A new sign-in email (ASVS 7.5.1: the password again). It takes effect only when the new
  // address confirms it; the answer is the same whether or not that address has an account.
  app.post<{ Body: ChangeEmailBody }>(
    '/user/email',
    { schema: { body: changeEmailBody }, config: perMinute(RATE_LIMITS.resetRequest) },
    async (request): Promise<Record<string, never>> => {
      const row = await currentRow(request);
      const newEmail = checkedEmail(request.body.newEmail, 'newEmail');
      if (newEmail.toLowerCase() === row.email.toLowerCase()) {
        throw badRequest('That is already your email.', { newEmail: 'Already yours' });
      }
      // After the address is checked: a second factor is not spent on a change that cannot be.
      await confirmIdentity(app, row, request.body, request);
      await recordAuditEvent(app.db, { action: 'email.change-requested', actorUserId: row.id });
      app.backgroundJobs.run('change-email', async () => {
        if (await findUserRowByEmail(app.db, newEmail)) {
          await app.mailer.send(emailInUseMessage(newEmail));
        } else {
          const token = await issueAuthToken(app.db, 'change-email', row.id, { newEmail });
          const link = links.confirmEmail(app.config.publicUrl, token);
          await app.mailer.send(confirmEmailMessage(newEmail, link));
        }
        await app.mailer.send(emailChangeNoticeMessage(row.email, false));
      });
      return {};
    },
  );
}

/**
 * POST auth/email/confirm: the link mailed to a new address makes it the account's email. The
 * token alone suffices (the change was asked for with the password; the link proves the mailbox),
 * so it works in a browser that is not signed in.
 */
export async function registerEmailConfirmation(app: FastifyInstance): Promise<void> {
  app.post<{ Body: ConfirmEmailBody }>(
    '/auth/email/confirm',
    { schema: { body: confirmEmailBody }, config: perMinute(RATE_LIMITS.verify) },
    async (request): Promise<{ email: string }> => {
      try {
        const changed = await withTransaction(app.db, async (client) => {
          const consumed = await consumeAuthToken(client, 'change-email', request.body.token);
          const newEmail = consumed?.data.newEmail;
          if (!consumed || typeof newEmail !== 'string') throw badRequest(INVALID_LINK);
          const before = await findUserRowById(client, consumed.userId);
          if (!before) throw badRequest(INVALID_LINK);
          await setUserEmail(client, consumed.userId, newEmail);
          // A reset link mailed to the old address, or another pending change, goes with it.
          await cancelOutstandingLinks(client, consumed.userId, 'email.changed');
          await recordAuditEvent(client, { action: 'email.changed', actorUserId: consumed.userId });
          return { oldEmail: before.email, newEmail };
        });
        await app.mailer.send(emailChangeNoticeMessage(changed.oldEmail, true));
        return { email: changed.newEmail };
      } catch (error) {
        // Another account took the address after the link was sent.
        if ((error as { code?: string }).code === '23505') {
          throw new ClientError(409, 'That email now belongs to another account.');
        }
        throw error;
      }
    },
  );
}
