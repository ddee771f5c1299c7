/** Request and response shapes of the auth and user calls (spec: access §3, §7). */
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { FromSchema } from 'json-schema-to-ts';

export type AuthOrigin = 'Clearing';
export const ROLES = ['Administrator', 'Trader', 'Viewer'] as const;
export type Role = (typeof ROLES)[number];

export interface SignupRequest {
  email: string;
  recaptchaToken?: string;
  authOrigin: AuthOrigin;
}

export const configResponseSchema = {
  type: 'object',
  properties: {
    recaptcha_site_key: { type: 'string', description: 'Empty: no captcha is asked.' },
  },
  required: ['recaptcha_site_key'],
  additionalProperties: false,
} as const;
export type ConfigResponse = FromSchema<typeof configResponseSchema>;

export interface ResetRequestBody {
  email: string;
  authOrigin: AuthOrigin;
}

export interface ResetBody {
  token: string;
  password: string;
  userId: string;
  /** End every session of the account (ASVS 7.4.3); true when absent. */
  endOtherSessions?: boolean;
}

export interface VerifyEmailBody {
  token: string;
  password: string;
  email: string;
}

export interface SigninRequest {
  email: string;
  password: string;
  totpCode?: string;
}

export interface UserDetails {
  firstName: string;
  lastName: string;
  phoneNumber: string;
  approved: boolean;
}

export interface OrgDetails {
  clearingOrgId: string;
  name: string;
}

/**
 * Where the user's registration stands (DECISIONS "Applicants and reviewers"): submitted
 * (awaiting review), changes requested, approved, rejected.
 */
export type ApplicationStatus =
  'submitted' | 'changes_requested' | 'resubmitted' | 'approved' | 'rejected';

export interface ApplicationReview {
  status: ApplicationStatus;
  /** What staff asked to change, or why the application was rejected; null otherwise. */
  reason: string | null;
}

/** The signed-in user (spec access §3; `isNorthstarClearingStaff` is `is{product}ClearingStaff`). */
export interface User {
  id: string;
  email: string;
  isNorthstarClearingStaff: boolean;
  details: UserDetails | null;
  orgDetails: OrgDetails | null;
  organizationId: string | null;
  roles: Role[];
  /** The review of the user's registration form; null without one (seeded or invited users). */
  review?: ApplicationReview | null;
}

/** The second factors a TwoFactorRequired sign-in accepts. */
export type SecondFactor = 'totp' | 'passkey';

export type SigninResult =
  | {
      authStatus: 'TwoFactorRequired';
      /** What this account can answer with (absent from older servers: a code). */
      methods?: SecondFactor[];
      /** For `navigator.credentials.get`, when the account has passkeys. */
      passkeyOptions?: PublicKeyCredentialRequestOptionsJSON;
    }
  | { authStatus: 'AuthComplete'; user: User };

export type AuthCheck =
  { status: 'Authenticated'; isNorthstarClearingStaff: boolean } | { status: 'NotAuthenticated' };

export const twoFactorEnrolmentSchema = {
  type: 'object',
  properties: { secret: { type: 'string' }, otpauthUrl: { type: 'string' } },
  required: ['secret', 'otpauthUrl'],
  additionalProperties: false,
} as const;
export type TwoFactorEnrolment = FromSchema<typeof twoFactorEnrolmentSchema>;

export const twoFactorStateSchema = {
  type: 'object',
  properties: { enabled: { type: 'boolean' } },
  required: ['enabled'],
  additionalProperties: false,
} as const;
export type TwoFactorState = FromSchema<typeof twoFactorStateSchema>;

export interface UserSettings {
  tutorialComplete: boolean;
  twoFactorEnabled: boolean;
  details: UserDetails | null;
  organizationId: string | null;
  roles: Role[];
  members?: { userId: string; email: string; roles: Role[] }[];
}

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
