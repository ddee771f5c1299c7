/**
 * The registration forms as the API serves them (issue 40 §1): `GET forms` lists them, `GET
 * forms/{formId}` serves one whole, so a partner draws the same form in its own app with any JSON
 * Schema tool and is checked by the same rules as the portal's own pages.
 */
import type { FromSchema } from 'json-schema-to-ts';

const SHA256_PATTERN = '^[0-9a-f]{64}$';

/** One registration form of the list. */
export const formSummarySchema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The form id (`individual`, `business`).' },
    title: { type: 'string' },
    description: { type: 'string' },
    schemaHash: {
      type: 'string',
      pattern: SHA256_PATTERN,
      description:
        'SHA-256 (hex) of the bundled schema and uiSchema: the wording version. A submission ' +
        'names it; a saved application and a registration record it.',
    },
    url: { type: 'string', description: 'Where the whole form is served (`GET forms/{formId}`).' },
  },
  required: ['id', 'title', 'description', 'schemaHash', 'url'],
  additionalProperties: false,
} as const;

export const formListSchema = {
  type: 'object',
  description: 'The registration forms the account may answer, in the choice page’s order.',
  properties: { forms: { type: 'array', items: formSummarySchema } },
  required: ['forms'],
  additionalProperties: false,
} as const;

/** A file question: where its file is uploaded, what it takes. */
const formUploadSchema = {
  type: 'object',
  properties: {
    pointer: {
      type: 'string',
      description:
        'The JSON pointer `POST applications/{formId}/files` names in its `pointer` part.',
    },
    title: { type: 'string' },
    kind: { type: 'string', enum: ['image', 'pdf', 'image-or-pdf'], description: '`x-file`.' },
    accept: {
      type: 'array',
      items: { type: 'string' },
      description: 'The MIME types taken (judged by the file’s content, never its name).',
    },
    maxBytes: { type: 'integer', minimum: 1, description: 'The largest file taken, in bytes.' },
  },
  required: ['pointer', 'title', 'kind', 'accept', 'maxBytes'],
  additionalProperties: false,
} as const;

/** A document the applicant signs: an agreement's `x-document`, or a step's signature. */
const formAgreementSchema = {
  type: 'object',
  properties: {
    part: { type: 'string', description: 'The submission’s file part carrying the signed PDF.' },
    pointer: {
      type: 'string',
      description: 'The agreement’s answer (`const: true`); empty for a step’s signature.',
    },
    title: { type: 'string' },
    url: { type: 'string', description: 'Where the portal publishes the document.' },
    sha256: {
      type: ['string', 'null'],
      pattern: SHA256_PATTERN,
      description:
        'SHA-256 (hex) of the published document’s bytes, as the signature evidence records it ' +
        '(null if none is published at the URL).',
    },
  },
  required: ['part', 'pointer', 'title', 'url', 'sha256'],
  additionalProperties: false,
} as const;

const formStepSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    next: { type: 'string' },
    signaturePrompt: { type: 'string' },
    description: { type: 'string' },
    review: { type: 'boolean' },
    sections: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          title: { type: 'string' },
          fields: { type: 'array', items: { type: 'string' } },
        },
        required: ['fields'],
        additionalProperties: false,
      },
    },
  },
  required: ['id', 'title', 'next', 'sections'],
  additionalProperties: false,
} as const;

const anyObject = { type: 'object', additionalProperties: true } as const;

export const formDocumentSchema = {
  type: 'object',
  description:
    'A registration form whole: answers are valid when they validate against `schema` (JSON ' +
    'Schema draft-07 with ajv-errors’ `errorMessage` and the portal’s `x-…` annotations).',
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    schemaHash: formSummarySchema.properties.schemaHash,
    url: formSummarySchema.properties.url,
    schema: {
      ...anyObject,
      description:
        'The compiled JSON Schema: self-contained, every `$ref` local (`#/$defs/…`), as the ' +
        'portal itself validates with.',
    },
    uiSchema: { ...anyObject, description: 'How the portal draws it (rjsf uiSchema).' },
    steps: {
      type: ['array', 'null'],
      items: formStepSchema,
      description: 'The wizard’s steps (`ui:steps`), or null for a one-page form.',
    },
    uploads: { type: 'array', items: formUploadSchema },
    agreements: { type: 'array', items: formAgreementSchema },
    nested: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { schema: anyObject, uiSchema: anyObject },
        required: ['schema', 'uiSchema'],
        additionalProperties: false,
      },
      description: 'Forms drawn inside this one (a dialog’s `ui:options.form`), by id.',
    },
  },
  required: [
    'id',
    'title',
    'description',
    'schemaHash',
    'url',
    'schema',
    'uiSchema',
    'steps',
    'uploads',
    'agreements',
    'nested',
  ],
  additionalProperties: false,
} as const;

export type FormSummary = FromSchema<typeof formSummarySchema>;
export type FormList = FromSchema<typeof formListSchema>;
export type FormDocument = FromSchema<typeof formDocumentSchema>;
