/**
 * Request and response shapes of the staff calls under `/exchange/api/admin/` (specification
 * §7.4, which names the calls but not their fields). Staff only: 401 signed out, 403 otherwise.
 * The schemas are the routes' own (src/server/routes/admin.ts); the types come from them.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { ROLES, userDetailsSchema } from './auth';
import { UUID_PATTERN } from './http';
import { participantStatusSchema, registrationStatusSchema } from './statuses';
import { statementSchema } from './statement';

const uuid = { type: 'string', pattern: UUID_PATTERN } as const;
const reason = { type: 'string', maxLength: 2000 } as const;
const nullableString = { type: ['string', 'null'] } as const;

const userSummaryProperties = {
  id: { type: 'string' },
  email: { type: 'string' },
  isNorthstarClearingStaff: { type: 'boolean' },
  emailVerified: { type: 'boolean' },
  approved: { type: 'boolean' },
  firstName: nullableString,
  lastName: nullableString,
  organizationId: nullableString,
  clearingOrgId: nullableString,
  createdAt: { type: 'string', format: 'date-time' },
} as const;
const userSummaryRequired = [
  'id',
  'email',
  'isNorthstarClearingStaff',
  'emailVerified',
  'approved',
  'firstName',
  'lastName',
  'organizationId',
  'clearingOrgId',
  'createdAt',
] as const;

/** GET users: one row per user. */
export const adminUserSummarySchema = {
  type: 'object',
  properties: userSummaryProperties,
  required: userSummaryRequired,
  additionalProperties: false,
} as const;
export type AdminUserSummary = FromSchema<typeof adminUserSummarySchema>;

/** GET onboarding/organizations: registrations with their review status, those awaiting review first. */
export const adminRegistrationSummarySchema = {
  type: 'object',
  properties: {
    registrationId: { type: 'string' },
    userId: { type: 'string' },
    email: { type: 'string' },
    firstName: nullableString,
    lastName: nullableString,
    organizationId: { type: 'string' },
    organizationName: { type: 'string' },
    clearingOrgId: { type: 'string' },
    formId: { type: 'string' },
    schemaHash: {
      type: 'string',
      description: 'The content hash of the form wording the registration was answered under.',
    },
    status: registrationStatusSchema,
    submittedAt: { type: 'string', format: 'date-time' },
    reviewedAt: { ...nullableString, format: 'date-time' },
    reviewedBy: nullableString,
    reason: nullableString,
  },
  required: [
    'registrationId',
    'userId',
    'email',
    'firstName',
    'lastName',
    'organizationId',
    'organizationName',
    'clearingOrgId',
    'formId',
    'schemaHash',
    'status',
    'submittedAt',
    'reviewedAt',
    'reviewedBy',
    'reason',
  ],
  additionalProperties: false,
} as const;
export type AdminRegistrationSummary = FromSchema<typeof adminRegistrationSummarySchema>;

/** GET user/{userId}: the user, their organisation and their registration, if any. */
export const adminUserDetailSchema = {
  type: 'object',
  properties: {
    ...userSummaryProperties,
    details: { ...userDetailsSchema, type: ['object', 'null'] },
    roles: { type: 'array', items: { type: 'string', enum: ROLES } },
    twoFactorEnabled: { type: 'boolean' },
    organizationName: nullableString,
    registration: { ...adminRegistrationSummarySchema, type: ['object', 'null'] },
  },
  required: [
    ...userSummaryRequired,
    'details',
    'roles',
    'twoFactorEnabled',
    'organizationName',
    'registration',
  ],
  additionalProperties: false,
} as const;
export type AdminUserDetail = FromSchema<typeof adminUserDetailSchema>;

/** GET organizations. */
export const adminOrganizationSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    clearingOrgId: { type: 'string' },
    kind: { type: 'string', enum: ['individual', 'business'] },
    createdAt: { type: 'string', format: 'date-time' },
    memberCount: { type: 'integer' },
    registrationStatus: {
      type: ['string', 'null'],
      enum: [...registrationStatusSchema.enum, null],
      description: 'The KYC review of its registration; null when it has none (seeded or invited).',
    },
    participantStatus: {
      ...participantStatusSchema,
      description:
        'Approval as a clearing participant (after KYC approval): `pending` until staff decide.',
    },
    latestStatementAsOf: {
      ...nullableString,
      description: 'The business day of its newest statement, `yyyy-MM-dd`, or null.',
    },
  },
  required: [
    'id',
    'name',
    'clearingOrgId',
    'kind',
    'createdAt',
    'memberCount',
    'registrationStatus',
    'participantStatus',
    'latestStatementAsOf',
  ],
  additionalProperties: false,
} as const;
export type AdminOrganization = FromSchema<typeof adminOrganizationSchema>;

/** POST onboarding/kyc-approval. A reason is required to reject. */
export const kycApprovalRequestSchema = {
  type: 'object',
  properties: { registrationId: uuid, approved: { type: 'boolean' }, reason },
  required: ['registrationId', 'approved'],
  additionalProperties: false,
} as const;
export type KycApprovalRequest = FromSchema<typeof kycApprovalRequestSchema>;

/** POST onboarding/kyc-changes-request: asks the applicant for changes; the note says which. */
export const kycChangesRequestSchema = {
  type: 'object',
  properties: {
    registrationId: uuid,
    note: {
      ...reason,
      description: 'The note on the whole application; optional when `fields` name what to change.',
    },
    fields: {
      type: 'array',
      maxItems: 200,
      description:
        "The questions to change: JSON pointers into the registration's answers, each with a note.",
      items: {
        type: 'object',
        properties: { path: { type: 'string', maxLength: 1000 }, note: reason },
        required: ['path', 'note'],
        additionalProperties: false,
      },
    },
  },
  required: ['registrationId'],
  additionalProperties: false,
} as const;
export type KycChangesRequest = FromSchema<typeof kycChangesRequestSchema>;

/**
 * POST onboarding/participant-approval: admits (or refuses) a KYC-approved organisation as a
 * clearing participant. A reason is required to refuse.
 */
export const participantApprovalRequestSchema = {
  type: 'object',
  properties: { organizationId: uuid, approved: { type: 'boolean' }, reason },
  required: ['organizationId', 'approved'],
  additionalProperties: false,
} as const;
export type ParticipantApprovalRequest = FromSchema<typeof participantApprovalRequestSchema>;

/** POST onboarding/verification-email: mails a new verification link to an unverified user. */
export const verificationEmailRequestSchema = {
  type: 'object',
  properties: { userId: uuid },
  required: ['userId'],
  additionalProperties: false,
} as const;
export type VerificationEmailRequest = FromSchema<typeof verificationEmailRequestSchema>;

/** GET clearing-firms: the clearing firm(s) this portal clears for. */
export const adminClearingFirmSchema = {
  type: 'object',
  properties: {
    clearingFirmId: {
      type: 'string',
      description: "The prefix of its organisations' clearing ids (`NCF`).",
    },
    name: { type: 'string' },
    supportEmail: { type: 'string' },
    supportPhone: { type: 'string' },
    organizationCount: { type: 'integer' },
  },
  required: ['clearingFirmId', 'name', 'supportEmail', 'supportPhone', 'organizationCount'],
  additionalProperties: false,
} as const;
export type AdminClearingFirm = FromSchema<typeof adminClearingFirmSchema>;

/** GET statements/{organizationId}. */
export const adminStatementSchema = {
  type: 'object',
  properties: {
    organizationId: { type: 'string' },
    asOf: { type: 'string' },
    loadedAt: { type: 'string', format: 'date-time' },
    loadedBy: nullableString,
    statement: statementSchema,
  },
  required: ['organizationId', 'asOf', 'loadedAt', 'loadedBy', 'statement'],
  additionalProperties: false,
} as const;
export type AdminStatement = FromSchema<typeof adminStatementSchema>;

/**
 * PUT statements/{organizationId}: `asOf` defaults to today (UTC). The statement is checked by
 * validateStatement (src/server/statements), whose messages name each wrong field; the body's
 * schema takes any object there, and the type is the statement's.
 */
export const loadStatementRequestSchema = {
  type: 'object',
  properties: {
    asOf: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
    statement: { type: 'object' },
  },
  required: ['statement'],
  additionalProperties: false,
} as const;
export type LoadStatementRequest = Omit<
  FromSchema<typeof loadStatementRequestSchema>,
  'statement'
> & {
  statement: FromSchema<typeof statementSchema>;
};

export const adminDecisionResultSchema = {
  type: 'object',
  properties: { status: registrationStatusSchema },
  required: ['status'],
  additionalProperties: false,
} as const;
export type AdminDecisionResult = FromSchema<typeof adminDecisionResultSchema>;
