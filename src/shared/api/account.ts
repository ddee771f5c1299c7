/** Request and response shapes of the profile page's calls (DECISIONS "Security"). */
import type { FromSchema } from 'json-schema-to-ts';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

const isoTime = { type: 'string', description: 'ISO 8601 time.' } as const;

export const passkeySummarySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    createdAt: isoTime,
    lastUsedAt: { type: ['string', 'null'] },
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

/**
 * A current second factor, sent beside the password with a sensitive change when the account has
 * one (issue 27 §2): a code from the authenticator app, or a passkey's answer to the challenge of
 * POST user/reauth/passkey-options. Without it such a change answers 403 with
 * `errors.secondFactor` naming the account's factors (`totp`, `passkey`, or both).
 */
interface SecondFactorProof {
  totpCode?: string;
  passkey?: AuthenticationResponseJSON;
}

/** POST user/password: the current password, the new one, and whether to end other sessions. */
export interface ChangePasswordBody extends SecondFactorProof {
  currentPassword: string;
  newPassword: string;
  endOtherSessions: boolean;
}

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

/** Calls that change how the user signs in ask for the password again (ASVS 7.5.1). */
export interface PasswordConfirmation {
  password: string;
}

/** The password again and, when the account has one, a current second factor (issue 27 §2). */
export interface IdentityConfirmation extends PasswordConfirmation, SecondFactorProof {}

export interface PasskeyRegistrationBody {
  name: string;
  response: RegistrationResponseJSON;
}

export type PasskeyCreationOptions = PublicKeyCredentialCreationOptionsJSON;

/** POST auth/signin/passkey: the answer of the passkey the sign-in's second step asked for. */
export interface PasskeySigninBody {
  response: AuthenticationResponseJSON;
}

/** POST user/email: a new address, confirmed from a link mailed there. */
export interface ChangeEmailBody extends IdentityConfirmation {
  newEmail: string;
}

export interface ConfirmEmailBody {
  token: string;
}
