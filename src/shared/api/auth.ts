/** Request and response shapes of the auth and user calls (spec: access §3, §7). */
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { FromSchema } from 'json-schema-to-ts';
import { PASSWORD_MAX_LENGTH } from '../rules/password';
import { RECOVERY_CODE_MAX_LENGTH } from '../rules/totp';
import { UUID_PATTERN } from './http';
import { registrationStatusSchema } from './statuses';

export const ROLES = ['Administrator', 'Trader', 'Viewer'] as const;
export type Role = (typeof ROLES)[number];

const email = { type: 'string', maxLength: 254 } as const;
const password = { type: 'string', maxLength: PASSWORD_MAX_LENGTH } as const;
const token = { type: 'string', minLength: 1, maxLength: 256 } as const;
const authOrigin = { type: 'string', enum: ['Clearing'] } as const;

/** POST auth/signup. */
export const signupRequestSchema = {
  type: 'object',
  properties: { email, recaptchaToken: { type: 'string', maxLength: 4096 }, authOrigin },
  required: ['email', 'authOrigin'],
  additionalProperties: false,
} as const;
export type SignupRequest = FromSchema<typeof signupRequestSchema>;

/** POST auth/password/reset/request. */
export const resetRequestBodySchema = {
  type: 'object',
  properties: { email, authOrigin },
  required: ['email', 'authOrigin'],
  additionalProperties: false,
} as const;
export type ResetRequestBody = FromSchema<typeof resetRequestBodySchema>;

/** POST auth/password/reset. */
export const resetBodySchema = {
  type: 'object',
  properties: {
    token,
    password,
    userId: { type: 'string', pattern: UUID_PATTERN },
    endOtherSessions: {
      type: 'boolean',
      description: 'End every session of the account (ASVS 7.4.3); true when absent.',
    },
  },
  required: ['token', 'password', 'userId'],
  additionalProperties: false,
} as const;
export type ResetBody = FromSchema<typeof resetBodySchema>;

/** POST auth/verify-email. */
export const verifyEmailBodySchema = {
  type: 'object',
  properties: { token, password, email },
  required: ['token', 'password', 'email'],
  additionalProperties: false,
} as const;
export type VerifyEmailBody = FromSchema<typeof verifyEmailBodySchema>;

/** POST auth/verify-email/check: the link's token and address, asked about before use. */
export const verifyEmailCheckBodySchema = {
  type: 'object',
  properties: { token, email },
  required: ['token', 'email'],
  additionalProperties: false,
} as const;
export type VerifyEmailCheckBody = FromSchema<typeof verifyEmailCheckBodySchema>;

/**
 * Whether a verification link can still set the password. The same answer for an unknown,
 * expired, used or mismatched link: it tells the holder nothing the link did not.
 */
export const linkCheckSchema = {
  type: 'object',
  properties: { usable: { type: 'boolean' } },
  required: ['usable'],
  additionalProperties: false,
} as const;
export type LinkCheck = FromSchema<typeof linkCheckSchema>;

/**
 * A recovery code, sent in place of the 2FA code (issue 38 §4): `xxxxx-xxxxx`, spaces and hyphens
 * ignored.
 */
export const recoveryCodeText = {
  type: 'string',
  maxLength: RECOVERY_CODE_MAX_LENGTH,
  description: 'One of the account’s recovery codes, in place of totpCode; each works once.',
} as const;

/** POST auth/signin. Spec access §9: the 2FA code has at most 6 characters. */
export const signinRequestSchema = {
  type: 'object',
  properties: {
    email,
    password,
    totpCode: { type: 'string', maxLength: 6 },
    recoveryCode: recoveryCodeText,
  },
  required: ['email', 'password'],
  additionalProperties: false,
  examples: [{ email: 'ada.lovelace@example.com', password: 'correct horse battery staple' }],
} as const;
export type SigninRequest = FromSchema<typeof signinRequestSchema>;

export const configResponseSchema = {
  type: 'object',
  properties: {
    recaptcha_site_key: { type: 'string', description: 'Empty: no captcha is asked.' },
  },
  required: ['recaptcha_site_key'],
  additionalProperties: false,
} as const;
export type ConfigResponse = FromSchema<typeof configResponseSchema>;

const nullableString = { type: ['string', 'null'] } as const;
const rolesSchema = { type: 'array', items: { type: 'string', enum: ROLES } } as const;

/** The person's own details (the person form's answers but the photo ID). */
export const userDetailsSchema = {
  type: 'object',
  properties: {
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    phoneNumber: { type: 'string' },
    approved: { type: 'boolean' },
  },
  required: ['firstName', 'lastName', 'phoneNumber', 'approved'],
  additionalProperties: false,
} as const;
export type UserDetails = FromSchema<typeof userDetailsSchema>;

const orgDetailsSchema = {
  type: 'object',
  properties: { clearingOrgId: { type: 'string' }, name: { type: 'string' } },
  required: ['clearingOrgId', 'name'],
  additionalProperties: false,
} as const;

/**
 * Where the user's registration stands (docs/decisions.md, Applicants and reviewers), in the
 * registration's own words (`GET registration` says the same status).
 */
const applicationReviewSchema = {
  type: 'object',
  properties: {
    status: registrationStatusSchema,
    reason: {
      ...nullableString,
      description:
        'What staff asked to change, or why the application was rejected; null otherwise.',
    },
  },
  required: ['status', 'reason'],
  additionalProperties: false,
} as const;
export type ApplicationReview = FromSchema<typeof applicationReviewSchema>;

/** A user as the document shows one (the OpenAPI examples; never an answer of the server). */
const USER_EXAMPLE = {
  id: '6d0c3b52-2f5e-4c7a-9a41-3e8b7f1d2c90',
  email: 'ada.lovelace@example.com',
  isNorthstarClearingStaff: false,
  details: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    phoneNumber: '+12125550142',
    approved: true,
  },
  orgDetails: { clearingOrgId: 'NCM-000142', name: 'Lovelace Analytical Engines LLC' },
  organizationId: '0b9e4f7a-1c2d-4e3f-8a5b-6c7d8e9f0a1b',
  roles: ['Administrator'],
  review: null,
} as const;

/** The signed-in user (spec access §3; `isNorthstarClearingStaff` is `is{product}ClearingStaff`). */
export const userSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    isNorthstarClearingStaff: { type: 'boolean' },
    details: { ...userDetailsSchema, type: ['object', 'null'] },
    orgDetails: { ...orgDetailsSchema, type: ['object', 'null'] },
    organizationId: nullableString,
    roles: rolesSchema,
    review: {
      ...applicationReviewSchema,
      type: ['object', 'null'],
      description:
        "The review of the user's registration form; null without one (seeded or invited users).",
    },
  },
  required: [
    'id',
    'email',
    'isNorthstarClearingStaff',
    'details',
    'orgDetails',
    'organizationId',
    'roles',
  ],
  additionalProperties: false,
  examples: [USER_EXAMPLE],
} as const;
export type User = FromSchema<typeof userSchema>;

/** The second factors a TwoFactorRequired sign-in accepts. */
const secondFactorSchema = {
  type: 'string',
  enum: ['totp', 'passkey', 'recovery_code'],
  description:
    'recovery_code: the account has unused recovery codes, sent as `recoveryCode` (issue 38 §4).',
} as const;
export type SecondFactor = FromSchema<typeof secondFactorSchema>;

/**
 * POST auth/signin (and auth/signin/passkey): a second step, or the user signed in. The branches
 * name only what tells them apart, so choosing one (fast-json-stringify validates each) never
 * trips on the user's own fields; the properties above them say what each field is.
 */
export const signinResultSchema = {
  type: 'object',
  properties: {
    authStatus: { type: 'string', enum: ['TwoFactorRequired', 'AuthComplete'] },
    methods: {
      type: 'array',
      items: secondFactorSchema,
      description:
        'TwoFactorRequired: what this account can answer with (absent from older servers: a code).',
    },
    passkeyOptions: {
      type: 'object',
      additionalProperties: true,
      description:
        'TwoFactorRequired, when the account has passkeys: for `navigator.credentials.get`, ' +
        'PublicKeyCredentialRequestOptionsJSON (WebAuthn) as @simplewebauthn makes it.',
    },
    user: userSchema,
  },
  required: ['authStatus'],
  additionalProperties: false,
  anyOf: [
    {
      type: 'object',
      properties: { authStatus: { const: 'TwoFactorRequired' } },
      required: ['authStatus'],
      not: { type: 'object', required: ['user'] },
    },
    {
      type: 'object',
      properties: { authStatus: { const: 'AuthComplete' } },
      required: ['authStatus', 'user'],
    },
  ],
  examples: [
    { authStatus: 'AuthComplete', user: USER_EXAMPLE },
    { authStatus: 'TwoFactorRequired', methods: ['totp', 'recovery_code'] },
  ],
} as const;
type SigninAnswer = FromSchema<typeof signinResultSchema>;
/** The passkey options are the WebAuthn library's, passed through whole (typed as it types them). */
export type SigninResult =
  | (Omit<Extract<SigninAnswer, { authStatus: 'TwoFactorRequired' }>, 'passkeyOptions' | 'user'> & {
      passkeyOptions?: PublicKeyCredentialRequestOptionsJSON;
    })
  | Omit<Extract<SigninAnswer, { authStatus: 'AuthComplete' }>, 'methods' | 'passkeyOptions'>;

/** GET auth/signin: whether this browser is signed in. */
export const authCheckSchema = {
  anyOf: [
    {
      type: 'object',
      properties: {
        status: { const: 'Authenticated' },
        isNorthstarClearingStaff: { type: 'boolean' },
      },
      required: ['status', 'isNorthstarClearingStaff'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { status: { const: 'NotAuthenticated' } },
      required: ['status'],
      additionalProperties: false,
    },
  ],
} as const;
export type AuthCheck = FromSchema<typeof authCheckSchema>;

export const twoFactorEnrolmentSchema = {
  type: 'object',
  properties: { secret: { type: 'string' }, otpauthUrl: { type: 'string' } },
  required: ['secret', 'otpauthUrl'],
  additionalProperties: false,
} as const;
export type TwoFactorEnrolment = FromSchema<typeof twoFactorEnrolmentSchema>;

/** Ten new recovery codes, shown once (`xxxxx-xxxxx`); the server keeps only their hashes. */
const recoveryCodeList = {
  type: 'array',
  items: { type: 'string' },
  description: 'The new recovery codes, shown once: the server keeps only their hashes.',
} as const;

export const twoFactorStateSchema = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean' },
    recoveryCodes: {
      ...recoveryCodeList,
      description: 'PATCH only: the recovery codes made as the app was turned on, shown once.',
    },
  },
  required: ['enabled'],
  additionalProperties: false,
} as const;
export type TwoFactorState = FromSchema<typeof twoFactorStateSchema>;

/** POST user/2fa/recovery-codes: a new set, the old one void. */
export const recoveryCodesSchema = {
  type: 'object',
  properties: { recoveryCodes: recoveryCodeList },
  required: ['recoveryCodes'],
  additionalProperties: false,
} as const;
export type RecoveryCodes = FromSchema<typeof recoveryCodesSchema>;

/** GET and POST user/settings: the user's settings (members: an Administrator's organisation). */
export const userSettingsSchema = {
  type: 'object',
  properties: {
    tutorialComplete: { type: 'boolean' },
    twoFactorEnabled: { type: 'boolean' },
    details: { ...userDetailsSchema, type: ['object', 'null'] },
    organizationId: nullableString,
    roles: rolesSchema,
    members: {
      type: 'array',
      items: {
        type: 'object',
        properties: { userId: { type: 'string' }, email: { type: 'string' }, roles: rolesSchema },
        required: ['userId', 'email', 'roles'],
        additionalProperties: false,
      },
    },
  },
  required: ['tutorialComplete', 'twoFactorEnabled', 'details', 'organizationId', 'roles'],
  additionalProperties: false,
} as const;
export type UserSettings = FromSchema<typeof userSettingsSchema>;

/** Tags of `POST user/settings` (spec access §3). */
export const SETTINGS_TAGS = [
  'add_kyc',
  'modify_kyc',
  'invite_user',
  'set_roles',
  'mark_tutorial_complete',
] as const;
export type SettingsTag = (typeof SETTINGS_TAGS)[number];

/**
 * The person form's answers (schemas/person) as the form-data calls name their parts: invite
 * accept and the KYC settings tags in snake case (access spec §3); `registration/user` uses the
 * answers' own names. A 400 from those calls keys its field errors by these part names.
 */
export const PERSON_PARTS = {
  firstName: 'first_name',
  lastName: 'last_name',
  phoneNumber: 'phone_number',
  photoId: 'photo_id',
} as const;
export type PersonAnswer = keyof typeof PERSON_PARTS;

/** A user is "registered" once both their own details and their organisation exist. */
export function hasRegistered(user: Pick<User, 'details' | 'orgDetails'>): boolean {
  return user.details !== null && user.orgDetails !== null;
}
