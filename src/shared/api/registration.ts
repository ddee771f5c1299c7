/**
 * The applicant's view of their registration after submission (issue 17): where it stands, the
 * statuses it took, and the changes staff asked for, question by question.
 */

import type { FromSchema } from 'json-schema-to-ts';

/** What staff asked to change: a note on the whole application and the questions, each noted. */
const changeRequestSchema = {
  type: ['object', 'null'],
  description: 'Set while the status is changes_requested.',
  properties: {
    note: { type: ['string', 'null'] },
    fields: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'JSON pointer into the answers.' },
          prompt: { type: 'string', description: 'The question as the form asks it now.' },
          note: { type: 'string' },
        },
        required: ['path', 'prompt', 'note'],
        additionalProperties: false,
      },
    },
  },
  required: ['note', 'fields'],
  additionalProperties: false,
} as const;

const reviewStatus = {
  type: 'string',
  enum: ['pending', 'changes_requested', 'resubmitted', 'approved', 'rejected'],
} as const;

/** One status the registration took: when, and who made the change. */
const statusEventSchema = {
  type: 'object',
  properties: {
    status: reviewStatus,
    at: { type: 'string', format: 'date-time' },
    by: { type: 'string', enum: ['applicant', 'staff', 'operator'] },
  },
  required: ['status', 'at', 'by'],
  additionalProperties: false,
} as const;

/** GET registration: the signed-in user's registration, or null before they submit one. */
export const registrationOverviewSchema = {
  type: 'object',
  properties: {
    registration: {
      type: ['object', 'null'],
      properties: {
        registrationId: { type: 'string' },
        formId: { type: 'string' },
        status: reviewStatus,
        history: { type: 'array', items: statusEventSchema },
        changeRequest: changeRequestSchema,
      },
      required: ['registrationId', 'formId', 'status', 'history', 'changeRequest'],
      additionalProperties: false,
    },
  },
  required: ['registration'],
  additionalProperties: false,
} as const;

/** Where a registration stands: submitted, waiting for changes, resubmitted, decided. */
export type RegistrationStatus = FromSchema<typeof reviewStatus>;
export type ChangeRequest = NonNullable<FromSchema<typeof changeRequestSchema>>;
export type StatusEvent = FromSchema<typeof statusEventSchema>;
export type RegistrationOverview = FromSchema<typeof registrationOverviewSchema>;
