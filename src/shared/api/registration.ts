/**
 * The applicant's view of their registration after submission (issue 17): where it stands, the
 * statuses it took, and the changes staff asked for, question by question.
 */

import type { FromSchema } from 'json-schema-to-ts';
import { registrationStatusSchema } from './statuses';

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

/** One status the registration took: when, and who made the change. */
const statusEventSchema = {
  type: 'object',
  properties: {
    status: registrationStatusSchema,
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
        status: registrationStatusSchema,
        history: { type: 'array', items: statusEventSchema },
        changeRequest: changeRequestSchema,
      },
      required: ['registrationId', 'formId', 'status', 'history', 'changeRequest'],
      additionalProperties: false,
    },
  },
  required: ['registration'],
  additionalProperties: false,
  examples: [
    {
      registration: {
        registrationId: '5c1e8a7d-3b2f-4e6a-9d0c-7f4b2a1e8c36',
        formId: 'individual',
        status: 'changes_requested',
        history: [
          { status: 'submitted', at: '2026-05-12T14:02:11.000Z', by: 'applicant' },
          { status: 'changes_requested', at: '2026-05-13T09:41:27.000Z', by: 'staff' },
        ],
        changeRequest: {
          note: 'Please correct your name as it appears on your photo ID.',
          fields: [
            {
              path: '/userInfo/firstName',
              prompt: 'First name',
              note: 'The photo ID reads Augusta.',
            },
          ],
        },
      },
    },
  ],
} as const;

export type ChangeRequest = NonNullable<FromSchema<typeof changeRequestSchema>>;
export type StatusEvent = FromSchema<typeof statusEventSchema>;
export type RegistrationOverview = FromSchema<typeof registrationOverviewSchema>;
