/**
 * Request and response shapes of the profile page's calls (docs/decisions.md, The profile page).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { PASSWORD_MAX_LENGTH } from '../rules/password';
import { recoveryCodeText } from './auth';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

const isoTime = { type: 'string', format: 'date-time', description: 'ISO 8601 time.' } as const;

export const passkeySummarySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    createdAt: isoTime,
    lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['id', 'name', 'createdAt', 'lastUsedAt'],
  additionalProperties: false,
} as const;

/** GET user/profile: who the user is and how they sign in. */
export const profileSchema = {
  type: 'object',
  properties: {
    email: { type: 'string' },
    firstName: { type: ['string', 'null'] },
    lastName: { type: ['string', 'null'] },
    totpEnabled: { type: 'boolean', description: 'An authenticator app (TOTP) is on.' },
    passkeys: { type: 'array', items: passkeySummarySchema },
    recoveryCodesLeft: {
      type: 'integer',
      description:
        'Recovery codes not used yet, of the ten of the last set (issue 38 §4); this server always sends it.',
    },
  },
  required: ['email', 'firstName', 'lastName', 'totpEnabled', 'passkeys'],
  additionalProperties: false,
} as const;
export type Profile = FromSchema<typeof profileSchema>;

/** One live session, as GET user/sessions lists it. */
const sessionSummarySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    current: { type: 'boolean', description: "This browser's own session." },
    device: { type: 'string', description: 'Browser and system ("Chrome 131 on Linux").' },
    place: {
      type: 'string',
      description:
        'Where it signed in from: this computer, the local network, an approximate place with the address, or the address alone.',
    },
    signedInAt: isoTime,
    lastSeenAt: isoTime,
  },
  required: ['id', 'current', 'device', 'place', 'signedInAt', 'lastSeenAt'],
  additionalProperties: false,
} as const;

export const sessionListSchema = {
  type: 'object',
  properties: {
    sessions: { type: 'array', items: sessionSummarySchema },
    placesAttribution: {
      type: ['object', 'null'],
      description: "The credit the IP data's licence asks for beside its places.",
      properties: { text: { type: 'string' }, url: { type: 'string' } },
      required: ['text', 'url'],
      additionalProperties: false,
    },
  },
  required: ['sessions', 'placesAttribution'],
  additionalProperties: false,
} as const;
export type SessionList = FromSchema<typeof sessionListSchema>;

/** How many other sessions a change ended. */
export const sessionsEndedSchema = {
  type: 'object',
  properties: { endedSessions: { type: 'integer' } },
  required: ['endedSessions'],
  additionalProperties: false,
} as const;
export type SessionsEnded = FromSchema<typeof sessionsEndedSchema>;

/** POST auth/email/confirm: the address now on the account. */
export const emailConfirmedSchema = {
  type: 'object',
  properties: { email: { type: 'string' } },
  required: ['email'],
  additionalProperties: false,
} as const;

/** The library's options for `navigator.credentials.create`, passed through whole. */
export const passkeyCreationOptionsSchema = {
  type: 'object',
  additionalProperties: true,
  description: 'PublicKeyCredentialCreationOptionsJSON (WebAuthn), as @simplewebauthn makes it.',
} as const;

export type PasskeyCreationOptions = PublicKeyCredentialCreationOptionsJSON;

// Request bodies: the routes validate with these schemas and both sides type with what they give.
// A WebAuthn answer is checked by the schema only on its outside (the library checks its inside),
// so its fields are typed as @simplewebauthn types them.

const passwordText = { type: 'string', maxLength: PASSWORD_MAX_LENGTH } as const;
const emailText = { type: 'string', maxLength: 254 } as const;
const tokenText = { type: 'string', minLength: 1, maxLength: 256 } as const;

/** Spec access §9: the 2FA code has at most 6 characters. */
const totpCodeText = { type: 'string', maxLength: 6 } as const;

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

/**
 * A current second factor, sent beside the password with a sensitive change when the account has
 * one (issue 27 §2): a code from the authenticator app, one of the account's recovery codes
 * (issue 38 §4), or a passkey's answer to the challenge of POST user/reauth/passkey-options.
 * Without it such a change answers 403 with `errors.secondFactor` naming the account's factors
 * (`totp`, `passkey`, or both; `recoveryCode` too while unused codes remain).
 */
const secondFactorProof = {
  totpCode: totpCodeText,
  recoveryCode: recoveryCodeText,
  passkey: webauthnResponse,
} as const;

/** The passkey's answer in a body typed as the WebAuthn library types it. */
type WithPasskeyAnswer<Body> = Omit<Body, 'passkey'> & { passkey?: AuthenticationResponseJSON };

/** POST user/2fa/confirm: the code the new authenticator app shows. */
export const totpConfirmBody = {
  type: 'object',
  properties: { totpCode: totpCodeText },
  required: ['totpCode'],
  additionalProperties: false,
} as const;

/** Calls that change how the user signs in ask for the password again (ASVS 7.5.1). */
export const passwordConfirmationBody = {
  type: 'object',
  properties: { password: passwordText },
  required: ['password'],
  additionalProperties: false,
} as const;
export type PasswordConfirmation = FromSchema<typeof passwordConfirmationBody>;

/** The password again and, when the account has one, a current second factor (issue 27 §2). */
export const identityConfirmationBody = {
  type: 'object',
  properties: { password: passwordText, ...secondFactorProof },
  required: ['password'],
  additionalProperties: false,
} as const;
export type IdentityConfirmation = WithPasskeyAnswer<FromSchema<typeof identityConfirmationBody>>;

/** POST user/email: a new address, confirmed from a link mailed there. */
export const changeEmailBody = {
  type: 'object',
  properties: { password: passwordText, newEmail: emailText, ...secondFactorProof },
  required: ['password', 'newEmail'],
  additionalProperties: false,
} as const;
export type ChangeEmailBody = WithPasskeyAnswer<FromSchema<typeof changeEmailBody>>;

/** POST auth/email/confirm: the token of the link mailed to the new address. */
export const confirmEmailBody = {
  type: 'object',
  properties: { token: tokenText },
  required: ['token'],
  additionalProperties: false,
} as const;
export type ConfirmEmailBody = FromSchema<typeof confirmEmailBody>;

/** POST user/password: the current password, the new one, and whether to end other sessions. */
export const changePasswordBody = {
  type: 'object',
  properties: {
    currentPassword: passwordText,
    newPassword: passwordText,
    endOtherSessions: { type: 'boolean' },
    ...secondFactorProof,
  },
  required: ['currentPassword', 'newPassword', 'endOtherSessions'],
  additionalProperties: false,
} as const;
export type ChangePasswordBody = WithPasskeyAnswer<FromSchema<typeof changePasswordBody>>;

/** POST user/passkeys: the new passkey's name and the browser's answer. */
export const passkeyRegistrationBody = {
  type: 'object',
  properties: { name: { type: 'string', maxLength: 64 }, response: webauthnResponse },
  required: ['name', 'response'],
  additionalProperties: false,
} as const;
export type PasskeyRegistrationBody = Omit<
  FromSchema<typeof passkeyRegistrationBody>,
  'response'
> & { response: RegistrationResponseJSON };

/** POST auth/signin/passkey: the answer of the passkey the sign-in's second step asked for. */
export const passkeySigninBody = {
  type: 'object',
  properties: { response: webauthnResponse },
  required: ['response'],
  additionalProperties: false,
} as const;
export type PasskeySigninBody = Omit<FromSchema<typeof passkeySigninBody>, 'response'> & {
  response: AuthenticationResponseJSON;
};
