/**
 * Applications on the server (issue 17): the form's answers saved as the applicant works, its
 * files uploaded when chosen, resumed on any device. Routes under `/exchange/api/web` (and, as
 * the contract first named them, `/exchange/api`):
 *
 * - `GET applications/:formId` → `ApplicationResponse`
 * - `PUT applications/:formId` `SaveApplicationRequest` → `SaveApplicationResult`; a stale
 *   `baseRevision` → 409 `ApplicationConflict`
 * - `POST applications/:formId/files` multipart (`pointer`, then `file`) → `ApplicationFileResult`
 * - `DELETE applications/:formId/files?pointer=…` → 204
 */
import type { FromSchema } from 'json-schema-to-ts';
import { applicationStatusSchema } from './statuses';

/** A file answer's reference (docs/decisions.md, The shape of answers): its bytes travel beside. */
const fileReferenceSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, type: { type: 'string' }, size: { type: 'integer' } },
  required: ['name', 'type', 'size'],
  additionalProperties: false,
} as const;

const answersSchema = {
  type: 'object',
  additionalProperties: true,
  description: "The form's answers, keyed as the form's schema names them.",
} as const;

const promptList = { type: 'array', items: { type: 'string' } } as const;

export const applicationViewSchema = {
  type: 'object',
  properties: {
    formId: { type: 'string' },
    schemaHash: { type: 'string' },
    revision: { type: 'integer' },
    savedAt: { type: 'string', format: 'date-time', description: 'ISO time of the last save.' },
    step: { type: ['integer', 'null'] },
    status: applicationStatusSchema,
    answers: {
      ...answersSchema,
      description: 'Every answer, sensitive ones included (only ever sent to the applicant).',
    },
    files: {
      type: 'object',
      additionalProperties: fileReferenceSchema,
      description: 'The files the application holds, by the pointer of their question.',
    },
    changeRequest: {
      type: ['object', 'null'],
      properties: {
        note: { type: 'string' },
        fields: {
          type: 'array',
          items: {
            type: 'object',
            description: 'A change staff asked for, by the question’s pointer and its prompt.',
            properties: {
              path: { type: 'string' },
              prompt: { type: 'string' },
              note: { type: 'string' },
            },
            required: ['path', 'prompt', 'note'],
            additionalProperties: false,
          },
        },
        submitted: {
          ...answersSchema,
          description:
            "The registration's answers as submitted (what the request's rule compares with).",
        },
      },
      required: ['note', 'fields', 'submitted'],
      additionalProperties: false,
    },
    carriedOver: {
      type: ['object', 'null'],
      description: 'What changed in the form since the answers were saved (told once).',
      properties: { added: promptList, reworded: promptList, dropped: promptList },
      required: ['added', 'reworded', 'dropped'],
      additionalProperties: false,
    },
  },
  required: [
    'formId',
    'schemaHash',
    'revision',
    'savedAt',
    'step',
    'status',
    'answers',
    'files',
    'changeRequest',
    'carriedOver',
  ],
  additionalProperties: false,
} as const;

export type ApplicationView = FromSchema<typeof applicationViewSchema>;
export type CarriedOver = NonNullable<ApplicationView['carriedOver']>;

export const applicationResponseSchema = {
  type: 'object',
  properties: { application: { anyOf: [applicationViewSchema, { type: 'null' }] } },
  required: ['application'],
  additionalProperties: false,
} as const;
export type ApplicationResponse = FromSchema<typeof applicationResponseSchema>;

export const saveApplicationRequestSchema = {
  type: 'object',
  required: ['answers', 'baseRevision'],
  properties: {
    answers: answersSchema,
    baseRevision: {
      type: 'integer',
      minimum: 0,
      description: 'The revision the answers were edited from; 0 for the first save.',
    },
    step: { type: ['integer', 'null'], minimum: 0, maximum: 1000 },
  },
} as const;
export type SaveApplicationRequest = FromSchema<typeof saveApplicationRequestSchema>;

export const saveApplicationResultSchema = {
  type: 'object',
  properties: { revision: { type: 'integer' }, savedAt: { type: 'string', format: 'date-time' } },
  required: ['revision', 'savedAt'],
  additionalProperties: false,
} as const;
export type SaveApplicationResult = FromSchema<typeof saveApplicationResultSchema>;

/** 409 on a stale base revision: the application as stored, for the browser to merge with. */
export const applicationConflictSchema = {
  type: 'object',
  properties: {
    errorMessage: { type: 'string' },
    code: { const: 'stale_revision' },
    application: { anyOf: [applicationViewSchema, { type: 'null' }] },
  },
  required: ['errorMessage', 'code', 'application'],
  additionalProperties: false,
} as const;
export type ApplicationConflict = FromSchema<typeof applicationConflictSchema>;

export const applicationFileResultSchema = {
  type: 'object',
  properties: {
    ...fileReferenceSchema.properties,
    pointer: { type: 'string' },
    revision: { type: 'integer' },
  },
  required: ['name', 'type', 'size', 'pointer', 'revision'],
  additionalProperties: false,
} as const;
export type ApplicationFileResult = FromSchema<typeof applicationFileResultSchema>;

/** POST applications/:formId/files: multipart, `pointer` first, then `file`. */
export const applicationFilePartsSchema = {
  type: 'object',
  properties: {
    pointer: { type: 'string', description: 'The JSON pointer of the file question.' },
    // Raw bytes, not a JSON string: OpenAPI 3.1 says a binary part by its media type alone, so a
    // generated client takes a Blob for it.
    file: {
      contentMediaType: 'application/octet-stream',
      description: 'The file’s bytes.',
      examples: ['(the file’s bytes)'],
    },
  },
  required: ['pointer', 'file'],
} as const;
