/** JSON schemas of the auth and user calls, for Fastify's validation and response serialising. */

const email = { type: 'string', maxLength: 254 } as const;
import { PASSWORD_MAX_LENGTH } from '../../shared/rules/password';

const password = { type: 'string', maxLength: PASSWORD_MAX_LENGTH } as const;
const token = { type: 'string', minLength: 1, maxLength: 256 } as const;
export const UUID_PATTERN =
  '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const isUuid = (value: string | undefined): value is string =>
  value !== undefined && new RegExp(UUID_PATTERN).test(value);

const body = (properties: Record<string, object>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const signupBody = body(
  {
    email,
    recaptchaToken: { type: 'string', maxLength: 4096 },
    authOrigin: { type: 'string', enum: ['Clearing'] },
  },
  ['email', 'authOrigin'],
);

export const resetRequestBody = body(
  { email, authOrigin: { type: 'string', enum: ['Clearing'] } },
  ['email', 'authOrigin'],
);

export const resetBody = body(
  {
    token,
    password,
    userId: { type: 'string', pattern: UUID_PATTERN },
    // ASVS 7.4.3: end every session of the account (the default) or keep them.
    endOtherSessions: { type: 'boolean' },
  },
  ['token', 'password', 'userId'],
);

export const verifyEmailBody = body({ token, password, email }, ['token', 'password', 'email']);

/** Spec access §9: the 2FA code has at most 6 characters. */
const totpCode = { type: 'string', maxLength: 6 } as const;

export const signinBody = body({ email, password, totpCode }, ['email', 'password']);

export const totpConfirmBody = body({ totpCode }, ['totpCode']);

/** A WebAuthn answer as @simplewebauthn/browser hands it over; the library checks its inside. */
const webauthnResponse = {
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 1024 },
    rawId: { type: 'string', maxLength: 1024 },
    type: { type: 'string', maxLength: 32 },
    response: { type: 'object' },
  },
  required: ['id', 'rawId', 'type', 'response'],
} as const;

/** Re-authentication (ASVS 7.5.1): the password again. */
export const passwordConfirmationBody = body({ password }, ['password']);

/**
 * Re-authentication before a sensitive change (issue 27 §2): the password again and, when the
 * account has a second factor, a current one: a code or a passkey's answer.
 */
const secondFactorProof = { totpCode, passkey: webauthnResponse };

export const identityConfirmationBody = body({ password, ...secondFactorProof }, ['password']);

export const changeEmailBody = body({ password, newEmail: email, ...secondFactorProof }, [
  'password',
  'newEmail',
]);

export const confirmEmailBody = body({ token }, ['token']);

export const changePasswordBody = body(
  {
    currentPassword: password,
    newPassword: password,
    endOtherSessions: { type: 'boolean' },
    ...secondFactorProof,
  },
  ['currentPassword', 'newPassword', 'endOtherSessions'],
);

export const passkeyRegistrationBody = body(
  { name: { type: 'string', maxLength: 64 }, response: webauthnResponse },
  ['name', 'response'],
);

export const passkeySigninBody = body({ response: webauthnResponse }, ['response']);

const roles = { type: 'array', items: { type: 'string' } } as const;

const details = {
  type: ['object', 'null'],
  properties: {
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    phoneNumber: { type: 'string' },
    approved: { type: 'boolean' },
  },
} as const;

/** The User of src/shared/api/auth.ts; serialising through it keeps anything else out. */
export const userSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    isNorthstarClearingStaff: { type: 'boolean' },
    details,
    orgDetails: {
      type: ['object', 'null'],
      properties: { clearingOrgId: { type: 'string' }, name: { type: 'string' } },
    },
    organizationId: { type: ['string', 'null'] },
    roles,
    review: {
      type: ['object', 'null'],
      properties: { status: { type: 'string' }, reason: { type: ['string', 'null'] } },
    },
  },
} as const;

export const signinResult = {
  type: 'object',
  properties: {
    authStatus: { type: 'string' },
    user: userSchema,
    methods: { type: 'array', items: { type: 'string' } },
    // The library's options, passed through whole.
    passkeyOptions: { type: 'object', additionalProperties: true },
  },
  required: ['authStatus'],
} as const;

export const authCheck = {
  type: 'object',
  properties: { status: { type: 'string' }, isNorthstarClearingStaff: { type: 'boolean' } },
  required: ['status'],
} as const;

export const userSettingsSchema = {
  type: 'object',
  properties: {
    tutorialComplete: { type: 'boolean' },
    twoFactorEnabled: { type: 'boolean' },
    details,
    organizationId: { type: ['string', 'null'] },
    roles,
    members: {
      type: 'array',
      items: {
        type: 'object',
        properties: { userId: { type: 'string' }, email: { type: 'string' }, roles },
      },
    },
  },
} as const;
