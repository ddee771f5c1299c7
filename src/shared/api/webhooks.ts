/**
 * Webhooks (issue 40 §5): the endpoints an organisation's Administrator registers, the events the
 * portal posts to them (signed, retried), and the deliveries with their attempts. The event
 * schemas are the document's `webhooks` section too (src/server/webhooks/openapiWebhooks.ts).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { pageSchema } from './pagination';
import type { RegistrationStatus } from './statuses';

/** The events an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'registration.submitted',
  'registration.changes_requested',
  'registration.approved',
  'registration.rejected',
  'statement.published',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The statuses a registration event names (the registration's own vocabulary). */
const REGISTRATION_STATUSES = [
  'submitted',
  'changes_requested',
  'resubmitted',
  'approved',
  'rejected',
] as const satisfies readonly RegistrationStatus[];

/** The header carrying the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Northstar-Signature';

const dateTime = (description: string) =>
  ({ type: 'string', format: 'date-time', description }) as const;
const uuid = (description: string) => ({ type: 'string', format: 'uuid', description }) as const;

const eventTypeSchema = { type: 'string', enum: WEBHOOK_EVENT_TYPES } as const;

/** What a registration event tells: ids and the status, never a name or an answer. */
const registrationEventDataSchema = {
  type: 'object',
  properties: {
    registrationId: uuid('The registration (read it with `GET registration` or the admin API).'),
    organizationId: uuid('The organisation the registration is of.'),
    formId: { type: 'string', description: 'The form it was answered on (`individual`, …).' },
    status: {
      type: 'string',
      enum: REGISTRATION_STATUSES,
      description:
        'The status it took: `pending` (submitted), `resubmitted` (submitted again after a ' +
        'change request), `changes_requested`, `approved`, `rejected`.',
    },
    changedAt: dateTime('When it took the status.'),
  },
  required: ['registrationId', 'organizationId', 'formId', 'status', 'changedAt'],
  additionalProperties: false,
} as const;

/** What a statement event tells: whose statement, for which business day, loaded when. */
const statementEventDataSchema = {
  type: 'object',
  properties: {
    organizationId: uuid('The organisation whose statement was published.'),
    asOf: { type: 'string', format: 'date', description: 'The business day (`2026-11-21`).' },
    loadedAt: dateTime('When it was loaded.'),
  },
  required: ['organizationId', 'asOf', 'loadedAt'],
  additionalProperties: false,
} as const;

/** The body posted for one event of `type`, with the data it carries. */
const eventEnvelope = <Type extends WebhookEventType, Data extends object>(
  type: Type,
  data: Data,
  description: string,
) =>
  ({
    type: 'object',
    description,
    properties: {
      id: uuid('The event; a resend or retry posts the same id (use it to skip a duplicate).'),
      type: { type: 'string', const: type },
      createdAt: dateTime('When the event happened.'),
      data,
    },
    required: ['id', 'type', 'createdAt', 'data'],
    additionalProperties: false,
  }) as const;

/** Each event's body, by type (the document's `webhooks`). */
export const webhookEventSchemas = {
  'registration.submitted': eventEnvelope(
    'registration.submitted',
    registrationEventDataSchema,
    'A registration was submitted (status `pending`), or submitted again with the changes ' +
      'asked for (status `resubmitted`).',
  ),
  'registration.changes_requested': eventEnvelope(
    'registration.changes_requested',
    registrationEventDataSchema,
    'Staff asked the applicant for changes (what to change is read with the credentials).',
  ),
  'registration.approved': eventEnvelope(
    'registration.approved',
    registrationEventDataSchema,
    'The registration passed KYC review.',
  ),
  'registration.rejected': eventEnvelope(
    'registration.rejected',
    registrationEventDataSchema,
    'The registration was rejected.',
  ),
  'statement.published': eventEnvelope(
    'statement.published',
    statementEventDataSchema,
    'A clearing statement of the organisation was loaded (read it with `GET ' +
      'customer/{organizationId}/statement`).',
  ),
} as const;

const urlProperty = {
  type: 'string',
  maxLength: 2048,
  description:
    'Where events are posted: `https://…` on a public address. Development and test servers ' +
    'also take `http://` and `https://` on loopback (`localhost`, `127.0.0.1`, `[::1]`); ' +
    'production refuses every private, loopback and link-local address.',
} as const;

const eventsProperty = {
  type: 'array',
  items: eventTypeSchema,
  minItems: 1,
  uniqueItems: true,
  description: 'The events posted to it.',
} as const;

/** An endpoint as listed (its secret is never shown again). */
export const webhookEndpointSchema = {
  type: 'object',
  properties: {
    id: uuid('The endpoint.'),
    url: urlProperty,
    description: { type: 'string' },
    events: eventsProperty,
    enabled: { type: 'boolean', description: 'False: nothing is posted; deliveries wait.' },
    createdAt: dateTime('When it was registered.'),
  },
  required: ['id', 'url', 'description', 'events', 'enabled', 'createdAt'],
  additionalProperties: false,
} as const;

export const webhookEndpointListSchema = {
  type: 'object',
  description: "The organisation's endpoints, newest first.",
  properties: { data: { type: 'array', items: webhookEndpointSchema } },
  required: ['data'],
  additionalProperties: false,
} as const;

/** The answer of POST endpoints: the endpoint and its signing secret, shown this once. */
export const createdWebhookEndpointSchema = {
  type: 'object',
  properties: {
    ...webhookEndpointSchema.properties,
    secret: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9_-]{43}$',
      description:
        'The signing secret, shown this once (the portal keeps it encrypted and never shows ' +
        'it again): the HMAC-SHA256 key of the signature header, as its UTF-8 bytes.',
    },
  },
  required: [...webhookEndpointSchema.required, 'secret'],
  additionalProperties: false,
} as const;

/** The most hours the replaced secret keeps signing beside the new one (a week, as Stripe). */
const MAX_SECRET_OVERLAP_HOURS = 168;

/** POST endpoints/{id}/secret: how long the replaced secret keeps signing too. */
export const rollWebhookSecretBody = {
  type: 'object',
  properties: {
    overlapHours: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_SECRET_OVERLAP_HOURS,
      default: 24,
      description:
        'For this many hours every post is signed with the old secret too (a second `v1=`), ' +
        'so receivers can switch to the new one at their pace; 0 ends the old secret at once.',
    },
  },
  additionalProperties: false,
} as const;
export type RollWebhookSecret = FromSchema<typeof rollWebhookSecretBody>;

/** The answer of POST endpoints/{id}/secret: the new secret, shown this once. */
export const rolledWebhookSecretSchema = {
  type: 'object',
  properties: {
    ...createdWebhookEndpointSchema.properties,
    previousSecretExpiresAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description:
        'Until when the replaced secret signs too (a second `v1=` in the signature header); ' +
        'null when it ended at once.',
    },
  },
  required: [...createdWebhookEndpointSchema.required, 'previousSecretExpiresAt'],
  additionalProperties: false,
} as const;
export type RolledWebhookSecret = FromSchema<typeof rolledWebhookSecretSchema>;

export const createWebhookEndpointBody = {
  type: 'object',
  properties: {
    url: urlProperty,
    description: { type: 'string', maxLength: 200 },
    events: eventsProperty,
  },
  required: ['url', 'events'],
  additionalProperties: false,
} as const;

export const updateWebhookEndpointBody = {
  type: 'object',
  properties: {
    url: urlProperty,
    description: { type: 'string', maxLength: 200 },
    events: eventsProperty,
    enabled: { type: 'boolean' },
  },
  minProperties: 1,
  additionalProperties: false,
} as const;

/** One attempt to post a delivery. */
const webhookAttemptSchema = {
  type: 'object',
  properties: {
    attemptedAt: dateTime('When the request was sent.'),
    statusCode: {
      type: ['integer', 'null'],
      description: 'The status the endpoint answered; null when no answer came.',
    },
    responseExcerpt: {
      type: ['string', 'null'],
      description: 'The first 500 characters of the answer’s body.',
    },
    error: {
      type: ['string', 'null'],
      description:
        'Why the attempt failed (a status other than 2xx, a redirect, a timeout, a refused ' +
        'address); null when it succeeded.',
    },
    durationMs: { type: 'integer', minimum: 0 },
  },
  required: ['attemptedAt', 'statusCode', 'responseExcerpt', 'error', 'durationMs'],
  additionalProperties: false,
} as const;

export const webhookDeliverySchema = {
  type: 'object',
  properties: {
    id: uuid('The delivery.'),
    endpointId: uuid('The endpoint it is posted to.'),
    eventId: uuid('The event (the `id` of the body posted).'),
    eventType: eventTypeSchema,
    state: {
      type: 'string',
      enum: ['pending', 'delivered', 'failed'],
      description:
        '`pending`: waiting for its next attempt (or for an earlier event of the same ' +
        'registration); `delivered`: answered 2xx; `failed`: given up after 72 hours of retries.',
    },
    nextAttemptAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When it is tried next; null once delivered or given up.',
    },
    resendOf: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The delivery this one resends.',
    },
    createdAt: dateTime('When it was queued.'),
    completedAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When it was delivered or given up.',
    },
    attempts: { type: 'array', items: webhookAttemptSchema, description: 'Oldest first.' },
  },
  required: [
    'id',
    'endpointId',
    'eventId',
    'eventType',
    'state',
    'nextAttemptAt',
    'resendOf',
    'createdAt',
    'completedAt',
    'attempts',
  ],
  additionalProperties: false,
} as const;

export const webhookDeliveryListSchema = pageSchema(
  webhookDeliverySchema,
  "The organisation's deliveries, newest first, a page at a time.",
);

export type WebhookEndpoint = FromSchema<typeof webhookEndpointSchema>;
export type CreatedWebhookEndpoint = FromSchema<typeof createdWebhookEndpointSchema>;
export type CreateWebhookEndpoint = FromSchema<typeof createWebhookEndpointBody>;
export type UpdateWebhookEndpoint = FromSchema<typeof updateWebhookEndpointBody>;
export type WebhookDelivery = FromSchema<typeof webhookDeliverySchema>;
export type WebhookDeliveryList = FromSchema<typeof webhookDeliveryListSchema>;
