/** GET and POST esign-consent: the applicant's consent to electronic records (ESIGN 7001(c)). */
import type { FromSchema } from 'json-schema-to-ts';

/** What GET esign-consent answers (and POST, with `consent` set). */
export const esignConsentStateSchema = {
  type: 'object',
  properties: {
    version: {
      type: 'string',
      description: "The consent's version: the SHA-256 of the consent document published now.",
    },
    document: {
      type: 'string',
      description: 'Where the consent document is published (`/assets/pdfs/e-sign-consent.pdf`).',
    },
    consent: {
      anyOf: [
        {
          type: 'object',
          description: "The user's consent to this version.",
          properties: { id: { type: 'string' }, givenAt: { type: 'string', format: 'date-time' } },
          required: ['id', 'givenAt'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    },
  },
  required: ['version', 'document', 'consent'],
  additionalProperties: false,
} as const;
export type EsignConsentState = FromSchema<typeof esignConsentStateSchema>;

/** POST esign-consent: the version the dialog showed (so a changed document is asked again). */
export const esignConsentRequestSchema = {
  type: 'object',
  required: ['version'],
  additionalProperties: false,
  properties: { version: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
} as const;
export type EsignConsentRequest = FromSchema<typeof esignConsentRequestSchema>;
