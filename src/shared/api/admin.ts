/**
 * Request and response shapes of the staff calls under `/exchange/api/admin/` (specification
 * §7.4, which names the calls but not their fields). Staff only: 401 signed out, 403 otherwise.
 */
import type { Role, UserDetails } from './auth';
import type { Statement } from './statement';

/**
 * Where a registration stands (DECISIONS "Applicants and reviewers"): `pending` is submitted and
 * awaiting review; `changes_requested` waits for the applicant; `resubmitted` (the applicant made
 * the changes) awaits review again.
 */
export type ReviewStatus =
  'pending' | 'changes_requested' | 'resubmitted' | 'approved' | 'rejected';

/** GET users: one row per user. */
export interface AdminUserSummary {
  id: string;
  email: string;
  isNorthstarClearingStaff: boolean;
  emailVerified: boolean;
  approved: boolean;
  firstName: string | null;
  lastName: string | null;
  organizationId: string | null;
  clearingOrgId: string | null;
  createdAt: string;
}

/** GET user/{userId}: the user, their organisation and their registration, if any. */
export interface AdminUserDetail extends AdminUserSummary {
  details: UserDetails | null;
  roles: Role[];
  twoFactorEnabled: boolean;
  organizationName: string | null;
  registration: AdminRegistrationSummary | null;
}

/** GET organizations. */
export interface AdminOrganization {
  id: string;
  name: string;
  clearingOrgId: string;
  kind: 'individual' | 'business';
  createdAt: string;
  memberCount: number;
  /** The KYC review of its registration; null when it has none (seeded or invited). */
  registrationStatus: ReviewStatus | null;
  /** Approval as a clearing participant (after KYC approval). */
  participantStatus: ReviewStatus;
  /** The business day of its newest statement, `yyyy-MM-dd`, or null. */
  latestStatementAsOf: string | null;
}

/** GET onboarding/organizations: registrations with their review status, pending first. */
export interface AdminRegistrationSummary {
  registrationId: string;
  userId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  organizationId: string;
  organizationName: string;
  clearingOrgId: string;
  formId: string;
  /** The content hash of the form wording the registration was answered under. */
  schemaHash: string;
  status: ReviewStatus;
  submittedAt: string;
  reviewedAt: string | null;
  reviewedBy: string | null;
  reason: string | null;
}

/** POST onboarding/kyc-approval. A reason is required to reject. */
export interface KycApprovalRequest {
  registrationId: string;
  approved: boolean;
  reason?: string;
}

/** POST onboarding/kyc-changes-request: asks the applicant for changes; the note says which. */
export interface KycChangesRequest {
  registrationId: string;
  /** The note on the whole application; optional when `fields` name what to change. */
  note?: string;
  /** The questions to change: JSON pointers into the registration's answers, each with a note. */
  fields?: { path: string; note: string }[];
}

/**
 * POST onboarding/participant-approval: admits (or refuses) a KYC-approved organisation as a
 * clearing participant. A reason is required to refuse.
 */
export interface ParticipantApprovalRequest {
  organizationId: string;
  approved: boolean;
  reason?: string;
}

/** POST onboarding/verification-email: mails a new verification link to an unverified user. */
export interface VerificationEmailRequest {
  userId: string;
}

/** GET clearing-firms: the clearing firm(s) this portal clears for. */
export interface AdminClearingFirm {
  /** The prefix of its organisations' clearing ids (`NCF`). */
  clearingFirmId: string;
  name: string;
  supportEmail: string;
  supportPhone: string;
  organizationCount: number;
}

/** GET statements/{organizationId}. */
export interface AdminStatement {
  organizationId: string;
  asOf: string;
  loadedAt: string;
  loadedBy: string | null;
  statement: Statement;
}

/** PUT statements/{organizationId}: `asOf` defaults to today (UTC). */
export interface LoadStatementRequest {
  asOf?: string;
  statement: Statement;
}

export interface AdminDecisionResult {
  status: ReviewStatus;
}
