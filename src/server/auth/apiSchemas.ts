/**
 * JSON schemas of the auth and account calls' request bodies, for Fastify's validation. Their
 * answers' schemas (and the types) are in src/shared/api/auth.ts and account.ts.
 */

const email = { type: 'string', maxLength: 254 } as const;
import { PASSWORD_MAX_LENGTH } from '../../shared/rules/password';
import { UUID_PATTERN } from '../../shared/api/http';

const password = { type: 'string', maxLength: PASSWORD_MAX_LENGTH } as const;
const token = { type: 'string', minLength: 1, maxLength: 256 } as const;

export const isUuid = (value: string | undefined): value is string =>
  value !== undefined && new RegExp(UUID_PATTERN).test(value);

const body = (properties: Record<string, object>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** Spec access §9: the 2FA code has at most 6 characters. */
const totpCode = { type: 'string', maxLength: 6 } as const;

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
