/**
 * Server-to-server API credentials (issue 40 §4): an organisation's Administrator makes them on
 * the Profile page; a partner's server sends one as `Authorization: Bearer <secret>`.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { identityConfirmationBody } from './account';

/** What a credential may be allowed to do; a route names the one it needs (or none). */
export const API_SCOPES = [
  'applications:write',
  'registrations:read',
  'statements:read',
  // The organisation's webhook endpoints and deliveries (issue 40 §5, routes/webhooks.ts).
  'webhooks:manage',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** Every secret starts so (a leaked one is recognisable by secret scanners and by eye). */
export const API_SECRET_PREFIX = 'ncpk_';

const time = { type: 'string', format: 'date-time' } as const;

/** A credential as its organisation's Administrators see it: never the secret. */
export const apiCredentialSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string', description: 'What the Administrator called it.' },
    scopes: {
      type: 'array',
      items: { type: 'string', enum: API_SCOPES },
      description: 'What it may do.',
    },
    secretStart: {
      type: 'string',
      description: 'The first characters of the secret, to tell credentials apart.',
    },
    createdAt: time,
    createdBy: { type: 'string', description: 'The email of the Administrator who made it.' },
    lastUsedAt: { ...time, type: ['string', 'null'], description: 'Its last use (to the minute).' },
    revokedAt: { ...time, type: ['string', 'null'], description: 'When it was revoked.' },
  },
  required: [
    'id',
    'name',
    'scopes',
    'secretStart',
    'createdAt',
    'createdBy',
    'lastUsedAt',
    'revokedAt',
  ],
  additionalProperties: false,
} as const;
export type ApiCredential = FromSchema<typeof apiCredentialSchema>;

/** GET user/api-credentials: the organisation's credentials, newest first, revoked ones too. */
export const apiCredentialListSchema = {
  type: 'object',
  properties: { credentials: { type: 'array', items: apiCredentialSchema } },
  required: ['credentials'],
  additionalProperties: false,
} as const;
export type ApiCredentialList = FromSchema<typeof apiCredentialListSchema>;

/** POST user/api-credentials: a name, its scopes, and the identity confirmed again. */
export const createApiCredentialBody = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' },
    scopes: {
      type: 'array',
      items: { type: 'string', enum: API_SCOPES },
      minItems: 1,
      maxItems: API_SCOPES.length,
      uniqueItems: true,
    },
    ...identityConfirmationBody.properties,
  },
  required: ['name', 'scopes', 'password'],
  additionalProperties: false,
} as const;
export type CreateApiCredentialBody = Omit<
  FromSchema<typeof createApiCredentialBody>,
  'passkey'
> & { passkey?: AuthenticationResponseJSON };

/** The answer of POST user/api-credentials: the credential, and its secret this once. */
export const createdApiCredentialSchema = {
  type: 'object',
  properties: {
    credential: apiCredentialSchema,
    secret: {
      type: 'string',
      description:
        'Send as `Authorization: Bearer <secret>`. Shown this once: only a hash is kept.',
    },
  },
  required: ['credential', 'secret'],
  additionalProperties: false,
} as const;
export type CreatedApiCredential = FromSchema<typeof createdApiCredentialSchema>;
