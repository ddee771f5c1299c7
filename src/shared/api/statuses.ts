/**
 * The one status vocabulary of an application and its registration (issue 40 §2; docs/api.md,
 * "Statuses of an application and its registration"). A moment has one word wherever it shows:
 * `submitted` is the application sent and its registration waiting for review, on the
 * application, the registration, its history, the staff calls, the webhooks and the applicant's
 * `review.status` alike (docs/decisions.md's word for it).
 */
import type { FromSchema } from 'json-schema-to-ts';

/** The applicant's saved answers: being answered, sent, or reopened for the changes staff asked. */
export const applicationStatusSchema = {
  type: 'string',
  enum: ['draft', 'submitted', 'changes_requested'],
  description:
    '`draft`: being answered. `submitted`: sent as a registration, its answers locked. ' +
    '`changes_requested`: staff asked for changes; only the named answers may change.',
} as const;

/** Where a registration's review stands. */
export const registrationStatusSchema = {
  type: 'string',
  enum: ['submitted', 'changes_requested', 'resubmitted', 'approved', 'rejected'],
  description:
    '`submitted`: waiting for review. `changes_requested`: waiting for the applicant. ' +
    '`resubmitted`: sent again after a change request, waiting for review. `approved`, ' +
    '`rejected`: final.',
} as const;
export type RegistrationStatus = FromSchema<typeof registrationStatusSchema>;

/**
 * An organisation's admission as a clearing participant, decided after its registration's KYC
 * approval: nothing is submitted for it, so the undecided state is `pending`.
 */
export const participantStatusSchema = {
  type: 'string',
  enum: ['pending', 'approved', 'rejected'],
  description: '`pending`: not yet decided. `approved`, `rejected`: decided by staff.',
} as const;
export type ParticipantStatus = FromSchema<typeof participantStatusSchema>;
