import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  SETTINGS_TAGS,
  userSchema,
  userSettingsSchema,
  type SettingsTag,
  type TwoFactorEnrolment,
  type TwoFactorState,
  type User,
  type UserSettings,
} from '../../shared/api/auth';
import { firm } from '../../shared/config/firm';
import type { IdentityConfirmation } from '../../shared/api/account';
import { identityConfirmationBody, totpConfirmBody } from '../../shared/api/account';
import { isUuid } from '../../shared/api/http';
import {
  personFileRules,
  withPhotoFieldError,
  personFormOf,
  readPerson,
  readRoles,
  SNAKE_CASE_PARTS,
  type PersonFields,
} from '../auth/personFields';
import { checkedEmail, perMinute, RATE_LIMITS } from '../auth/routeHelpers';
import { confirmIdentity } from '../auth/secondFactor';
import { cancelOutstandingLinks } from '../auth/accountLinks';
import { administeredOrganization } from '../auth/organizationAdmin';
import { matchTotp, newTotpSecret, otpauthUrl } from '../auth/totp';
import { hashRecoveryCodes, newRecoveryCodes } from '../auth/recoveryCodes';
import { replaceRecoveryCodes, voidRecoveryCodesWithoutFactor } from '../db/recoveryCodes';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { enforceLimit } from '../auth/enforceLimit';
import { insertUserDocument } from '../db/documents';
import { issueAuthToken } from '../db/tokens';
import { withTransaction } from '../db/transaction';
import {
  acceptTotpStep,
  clearTotp,
  createUnverifiedUser,
  findUserRowByEmail,
  findUserRowById,
  lastTotpStep,
  listOrganizationMembers,
  lockOrganizationMembers,
  markTutorialComplete,
  setPendingTotpSecret,
  setUserDetails,
  setUserRoles,
  toUser,
  type UserRow,
} from '../db/users';
import { isAdmittedParticipant } from '../db/registrations';
import { badRequest, ClientError, forbidden, unauthorized } from '../errors';
import { invitedExistingAccountMessage, inviteMessage, links } from '../mail/templates';
import {
  discardForm,
  readMultipartForm,
  type MultipartForm,
  registerMultipartReader,
} from '../storage/multipartForm';
import type { StoredFile } from '../db/documents';
import { registerRegistrationUserRoutes } from './registrationUser';

/** The current user, 2FA and settings (spec access §7). */
export async function registerUserRoutes(
  app: FastifyInstance,
  options: { currentUserOnly?: boolean },
): Promise<void> {
  await registerMultipartReader(app);
  /** The signed-in user's row; 401 when signed out or the user no longer exists. */
  const currentRow = async (request: { requireUserId(): Promise<string> }): Promise<UserRow> => {
    const row = await findUserRowById(app.db, await request.requireUserId());
    if (!row) throw unauthorized();
    return row;
  };

  app.get('/user', { schema: { response: { 200: userSchema } } }, async (request): Promise<User> =>
    toUser(await currentRow(request)),
  );
  // docs/decisions.md, Paths: /clearing/api/web answers only `user` (and the sign-in check).
  if (options.currentUserOnly) return;

  app.get('/user/2fa/state', async (request): Promise<TwoFactorState> => {
    const row = await currentRow(request);
    return { enabled: row.totp_enabled };
  });

  // Starts enrolment: a new pending secret; 2FA stays off until PATCH confirms a code. Changing
  // how the user signs in asks for the password again (ASVS 7.5.1), and a passkey too when the
  // account has one (issue 27 §2).
  app.post<{ Body: IdentityConfirmation }>(
    '/user/2fa',
    {
      schema: { body: identityConfirmationBody },
      config: perMinute(RATE_LIMITS.reauth),
      onRequest: signedInOnly,
    },
    async (request): Promise<TwoFactorEnrolment> => {
      const row = await currentRow(request);
      if (row.totp_enabled) throw new ClientError(409, 'Two-factor authentication is already on.');
      await confirmIdentity(app, row, request.body, request);
      const secret = newTotpSecret();
      await setPendingTotpSecret(app.db, row.id, secret);
      await recordAuditEvent(app.db, { action: '2fa.enrolment-started', actorUserId: row.id });
      return { secret, otpauthUrl: otpauthUrl(secret, firm.displayName, row.email) };
    },
  );

  // Turns the authenticator app off: the password again (ASVS 7.5.1) and a current second
  // factor, a code or a passkey (issue 27 §2).
  app.delete<{ Body: IdentityConfirmation }>(
    '/user/2fa',
    {
      schema: { body: identityConfirmationBody },
      config: perMinute(RATE_LIMITS.reauth),
      onRequest: signedInOnly,
    },
    async (request): Promise<TwoFactorState> => {
      const row = await currentRow(request);
      await confirmIdentity(app, row, request.body, request);
      await withTransaction(app.db, async (client) => {
        await clearTotp(client, row.id);
        // The recovery codes go with the last second factor (a passkey left keeps them).
        await voidRecoveryCodesWithoutFactor(client, row.id);
        await cancelOutstandingLinks(client, row.id, '2fa.disabled');
        await recordAuditEvent(client, { action: '2fa.disabled', actorUserId: row.id });
      });
      return { enabled: false };
    },
  );

  app.patch<{ Body: { totpCode: string } }>(
    '/user/2fa',
    { schema: { body: totpConfirmBody }, config: perMinute(RATE_LIMITS.twoFactor) },
    async (request): Promise<TwoFactorState> => {
      const row = await currentRow(request);
      if (row.totp_enabled) throw new ClientError(409, 'Two-factor authentication is already on.');
      if (!row.totp_secret) throw badRequest('Start two-factor setup first.');
      const wrongCode = () =>
        badRequest('The code is not right. Check your authenticator app and try again.', {
          totpCode: 'Wrong code',
        });
      const step = matchTotp(row.totp_secret, request.body.totpCode, lastTotpStep(row));
      if (step === null) throw wrongCode();
      // Ten recovery codes come with the app (issue 38 §4), hashed before the app is turned on,
      // so it is never on without them; shown once, in this answer.
      const recoveryCodes = newRecoveryCodes();
      const hashes = await hashRecoveryCodes(recoveryCodes, app.config.passwordCost, request.ip);
      if (!(await acceptTotpStep(app.db, row.id, step, { enable: true }))) throw wrongCode();
      await withTransaction(app.db, async (client) => {
        await replaceRecoveryCodes(client, row.id, hashes);
        await cancelOutstandingLinks(client, row.id, '2fa.enabled');
        await recordAuditEvent(client, {
          action: '2fa.enabled',
          actorUserId: row.id,
          detail: { recoveryCodes: recoveryCodes.length },
        });
      });
      return { enabled: true, recoveryCodes };
    },
  );

  app.get(
    '/user/settings',
    { schema: { response: { 200: userSettingsSchema } } },
    async (request): Promise<UserSettings> => settingsOf(app, await currentRow(request)),
  );

  registerSettingsUpdate(app, currentRow);
  registerRegistrationUserRoutes(app, currentRow);
}

/** A signed-out caller gets 401 before its body is looked at (security decided on the route). */
async function signedInOnly(request: FastifyRequest): Promise<void> {
  await request.requireUserId();
}

/** A user's settings; Administrators also see their organisation's members. */
async function settingsOf(app: FastifyInstance, row: UserRow): Promise<UserSettings> {
  const settings: UserSettings = {
    tutorialComplete: row.tutorial_complete,
    twoFactorEnabled: row.totp_enabled,
    details: row.details,
    organizationId: row.organization_id,
    roles: row.roles,
  };
  if (row.organization_id && row.roles.includes('Administrator')) {
    settings.members = await listOrganizationMembers(app.db, row.organization_id);
  }
  return settings;
}

type CurrentRow = (request: { requireUserId(): Promise<string> }) => Promise<UserRow>;

const KYC_TAGS: SettingsTag[] = ['add_kyc', 'modify_kyc'];

/**
 * POST user/settings (form data with `tag`, spec access §3). Answers the settings after the
 * change. A photo_id is accepted only with the KYC tags.
 */
function registerSettingsUpdate(app: FastifyInstance, currentRow: CurrentRow): void {
  const personForm = personFormOf(app.forms);
  const files = personFileRules(personForm, SNAKE_CASE_PARTS);
  app.post(
    '/user/settings',
    { schema: { response: { 200: userSettingsSchema } } },
    async (request): Promise<UserSettings> => {
      const row = await currentRow(request);
      const form = await readMultipartForm(request, {
        dataDir: app.config.dataDir,
        files,
      }).catch((error: unknown) => {
        throw withPhotoFieldError(error, personForm, SNAKE_CASE_PARTS);
      });
      let keepFiles = false;
      try {
        const tag = form.field('tag') as SettingsTag | undefined;
        if (!tag || !SETTINGS_TAGS.includes(tag)) {
          throw badRequest(`Unknown settings tag. Use one of ${SETTINGS_TAGS.join(', ')}.`);
        }
        if (form.files.size > 0 && !KYC_TAGS.includes(tag)) {
          throw badRequest(`${tag} takes no files.`);
        }
        await applySetting(app, row, tag, form);
        keepFiles = true;
      } finally {
        if (!keepFiles) await discardForm(app.config.dataDir, form);
      }
      return settingsOf(app, (await findUserRowById(app.db, row.id))!);
    },
  );
}

async function applySetting(
  app: FastifyInstance,
  row: UserRow,
  tag: SettingsTag,
  form: MultipartForm,
): Promise<void> {
  const personForm = personFormOf(app.forms);
  switch (tag) {
    case 'add_kyc': {
      if (row.details) {
        throw new ClientError(
          409,
          'Your details are already on file. Use modify_kyc to change them.',
        );
      }
      // Spec access §3: add_kyc's photo_id is optional; the rest is required.
      const { details, photo } = readPerson(personForm, form, SNAKE_CASE_PARTS, {
        optional: ['photoId'],
      });
      await saveKyc(app, row, tag, details, photo);
      return;
    }
    case 'modify_kyc': {
      if (!row.details) throw badRequest('There are no details to change yet. Use add_kyc first.');
      const { details, photo } = readPerson(personForm, form, SNAKE_CASE_PARTS, {
        optional: ['firstName', 'lastName', 'phoneNumber', 'photoId'],
      });
      if (Object.keys(details).length === 0 && !photo) throw badRequest('Nothing to change.');
      await saveKyc(app, row, tag, details, photo);
      return;
    }
    case 'invite_user':
      return inviteUser(app, row, form);
    case 'set_roles':
      return setRoles(app, row, form);
    case 'mark_tutorial_complete':
      await withTransaction(app.db, async (client) => {
        await markTutorialComplete(client, row.id);
        await recordAuditEvent(client, {
          action: 'settings.mark_tutorial_complete',
          actorUserId: row.id,
        });
      });
      return;
  }
}

/**
 * Stores KYC details. Any change sends them back to review (approved: false): a regulated firm
 * checks changed identity details again before relying on them.
 */
async function saveKyc(
  app: FastifyInstance,
  row: UserRow,
  tag: 'add_kyc' | 'modify_kyc',
  person: PersonFields,
  photo: StoredFile | undefined,
): Promise<void> {
  const merged = { ...row.details, ...person };
  await withTransaction(app.db, async (client) => {
    await setUserDetails(client, row.id, {
      firstName: merged.firstName ?? '',
      lastName: merged.lastName ?? '',
      phoneNumber: merged.phoneNumber ?? '',
      approved: false,
    });
    if (photo) await insertUserDocument(client, row.id, 'photo-id', photo);
    await recordAuditEvent(client, {
      action: `settings.${tag}`,
      actorUserId: row.id,
      detail: { fields: Object.keys(person), photoId: !!photo },
    });
  });
}

/**
 * invite_user: mails an invitation link to join the caller's organisation. Only an Administrator
 * of an organisation staff have admitted as a clearing participant may invite (an unreviewed
 * organisation could otherwise recruit accounts before anyone has checked it). The invitation
 * attaches nobody: the invited person joins only by accepting through the emailed link, so an
 * account someone else is still setting up can never be pulled into another organisation.
 * Optional repeated `role` fields set the roles on offer (default Viewer).
 */
async function inviteUser(app: FastifyInstance, row: UserRow, form: MultipartForm): Promise<void> {
  const organizationId = await administeredOrganization(app.db, row);
  if (!(await isAdmittedParticipant(app.db, organizationId))) {
    throw forbidden('Your organisation can invite people once Northstar has approved it.');
  }
  const email = checkedEmail(form.field('email') ?? '');
  const roles = readRoles(form.all('role'));
  const offered = roles.length > 0 ? roles : ['Viewer'];
  await limitInvitations(app, row.id, organizationId);
  const organizationName = row.org_name ?? 'an organisation';
  const invitation = await withTransaction(app.db, async (client) => {
    const existing = await findUserRowByEmail(client, email);
    // An account in use answers as a new address does (issue 39 §5: the answer told who holds an
    // account); its owner is told by email instead, and no link is issued.
    const inUse = !!existing && !!(existing.email_verified_at || existing.organization_id);
    // A new person gets an account with no organisation; acceptance attaches it.
    const invitedId = existing?.id ?? (await createUnverifiedUser(client, email));
    const issued = inUse
      ? null
      : await issueAuthToken(client, 'invite', invitedId, {
          organizationId,
          roles: offered,
          invitedBy: row.id,
        });
    await recordAuditEvent(client, {
      action: 'settings.invite_user',
      actorUserId: row.id,
      subjectUserId: invitedId,
      detail: { roles: offered, existingAccount: inUse },
    });
    return { token: issued, to: existing?.email ?? email };
  });
  const { token, to } = invitation;
  await app.mailer.send(
    token === null
      ? invitedExistingAccountMessage(to, organizationName)
      : inviteMessage(
          to,
          organizationName,
          links.invite(app.config.publicUrl, organizationId, to, token),
        ),
  );
}

/**
 * Each invitation sends an email to an address the caller chooses: without a limit the portal is
 * a mail relay. Counted per inviting user and per organisation, across every instance.
 */
async function limitInvitations(app: FastifyInstance, userId: string, organizationId: string) {
  const message = 'You have sent too many invitations. Please try again later.';
  await enforceLimit(app.db, {
    key: `invite-user:${userId}`,
    max: RATE_LIMITS.invitesPerUserPerHour,
    windowMs: 60 * 60 * 1000,
    message,
  });
  await enforceLimit(app.db, {
    key: `invite-organization:${organizationId}`,
    max: RATE_LIMITS.invitesPerOrganizationPerDay,
    windowMs: 24 * 60 * 60 * 1000,
    message,
  });
}

/** set_roles: an Administrator sets a member's roles; the organisation keeps an Administrator. */
async function setRoles(app: FastifyInstance, row: UserRow, form: MultipartForm): Promise<void> {
  const organizationId = await administeredOrganization(app.db, row);
  const userId = form.field('user_id');
  if (!isUuid(userId)) throw badRequest('Choose a member.', { user_id: 'Required' });
  const roles = readRoles(form.all('role'));
  if (roles.length === 0) throw badRequest('Choose at least one role.', { role: 'Required' });
  await withTransaction(app.db, async (client) => {
    // Lock the organisation's members so two Administrators cannot demote each other at once.
    const members = await lockOrganizationMembers(client, organizationId);
    if (!members.some((member) => member.id === userId)) {
      throw forbidden('That person is not a member of your organisation.');
    }
    const admins = members.filter(
      (member) => member.id !== userId && member.roles.includes('Administrator'),
    );
    if (!roles.includes('Administrator') && admins.length === 0) {
      throw badRequest('Your organisation needs at least one Administrator.');
    }
    await setUserRoles(client, userId, roles);
    await recordAuditEvent(client, {
      action: 'settings.set_roles',
      actorUserId: row.id,
      subjectUserId: userId,
      detail: { roles },
    });
  });
}
