/**
 * Webhooks (issue 40 §5), for an Administrator of an organisation: its endpoints (the signing
 * secret shown once), the deliveries with their attempts, a resend. What they do is
 * `webhooks/webhookService.ts`'s; the events themselves are the document's `webhooks`. An API
 * credential with the scope `webhooks:manage` may call them as its Administrator would.
 */
import type { FastifyInstance } from 'fastify';
import { apiErrorBodySchema, UUID_PATTERN } from '../../shared/api/http';
import { cursorQueryProperties } from '../../shared/api/pagination';
import {
  createdWebhookEndpointSchema,
  createWebhookEndpointBody,
  rolledWebhookSecretSchema,
  rollWebhookSecretBody,
  type RollWebhookSecret,
  updateWebhookEndpointBody,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  type CreateWebhookEndpoint,
  type UpdateWebhookEndpoint,
} from '../../shared/api/webhooks';
import {
  createEndpoint,
  deleteEndpoint,
  deliveriesPage,
  listEndpoints,
  oneDelivery,
  resendDelivery,
  rollSecret,
  updateEndpoint,
} from '../webhooks/webhookService';
import { access } from './contract';

const TAGS = ['webhooks'];

/** A refusal the call really gives, with what it means. */
const refusal = (description: string) => ({ ...apiErrorBodySchema, description });
const REFUSALS = {
  401: refusal('Signed out'),
  403: refusal(
    'Not an Administrator of the organisation, or an API credential without `webhooks:manage`',
  ),
} as const;
const NOT_FOUND = { 404: refusal('No such endpoint or delivery of the organisation') } as const;

const idParams = (what: string) =>
  ({
    type: 'object',
    properties: { id: { type: 'string', pattern: UUID_PATTERN, description: `The ${what}.` } },
    required: ['id'],
  }) as const;

const deliveriesQuery = {
  type: 'object',
  properties: {
    endpointId: {
      type: 'string',
      pattern: UUID_PATTERN,
      description: 'Only the deliveries of this endpoint.',
    },
    ...cursorQueryProperties(50),
  },
  additionalProperties: false,
} as const;

export async function registerWebhookRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/webhooks/endpoints',
    {
      config: { apiScope: 'webhooks:manage' },
      schema: {
        ...access.signedIn,
        operationId: 'listWebhookEndpoints',
        tags: TAGS,
        summary: "The organisation's webhook endpoints",
        description:
          'Every endpoint not deleted, newest first; their secrets are never shown again.',
        response: { 200: webhookEndpointListSchema, ...REFUSALS },
      },
    },
    async (request) => listEndpoints(app, await request.requireUserId()),
  );

  app.post<{ Body: CreateWebhookEndpoint }>(
    '/webhooks/endpoints',
    {
      config: { apiScope: 'webhooks:manage' },
      schema: {
        ...access.signedIn,
        operationId: 'createWebhookEndpoint',
        tags: TAGS,
        summary: 'Registers a webhook endpoint; answers its signing secret, shown this once',
        description:
          'Events of the chosen types are posted to `url` as JSON, signed in the ' +
          '`Northstar-Signature` header with the secret answered here (see the document’s ' +
          '`webhooks` and docs/api.md). The secret is kept encrypted and never shown again.',
        body: createWebhookEndpointBody,
        response: {
          201: createdWebhookEndpointSchema,
          400: refusal('The body does not match its schema'),
          ...REFUSALS,
          409: refusal('The organisation already has the most endpoints it may keep (20)'),
          422: refusal('The URL is refused: not https, or a private or reserved address'),
        },
      },
    },
    async (request, reply) => {
      const created = await createEndpoint(app, await request.requireUserId(), request.body);
      return reply.code(201).send(created);
    },
  );

  app.patch<{ Params: { id: string }; Body: UpdateWebhookEndpoint }>(
    '/webhooks/endpoints/:id',
    {
      config: { apiScope: 'webhooks:manage' },
      schema: {
        ...access.signedIn,
        operationId: 'updateWebhookEndpoint',
        tags: TAGS,
        summary: 'Changes an endpoint: its URL, description, events, or whether it is enabled',
        description:
          'A disabled endpoint is queued nothing new; what was queued waits until it is enabled.',
        params: idParams('endpoint'),
        body: updateWebhookEndpointBody,
        response: {
          200: webhookEndpointSchema,
          400: refusal('The body does not match its schema'),
          ...REFUSALS,
          ...NOT_FOUND,
          422: refusal('The URL is refused: not https, or a private or reserved address'),
        },
      },
    },
    async (request) =>
      updateEndpoint(app, await request.requireUserId(), request.params.id, request.body),
  );

  app.post<{ Params: { id: string }; Body: RollWebhookSecret }>(
    '/webhooks/endpoints/:id/secret',
    {
      config: { apiScope: 'webhooks:manage' },
      schema: {
        ...access.signedIn,
        operationId: 'rollWebhookSecret',
        tags: TAGS,
        summary: 'Replaces the endpoint’s signing secret; answers the new one, shown this once',
        description:
          'For `overlapHours` (default 24, at most 168) every post carries two signatures, ' +
          '`t=…,v1=<new>,v1=<old>`, so a receiver accepts a post signed with either while it ' +
          'moves to the new secret; `overlapHours: 0` ends the old secret at once (a leak). An ' +
          'older secret still overlapping from an earlier replacement ends now.',
        params: idParams('endpoint'),
        body: rollWebhookSecretBody,
        response: {
          200: rolledWebhookSecretSchema,
          400: refusal('The body does not match its schema'),
          ...REFUSALS,
          ...NOT_FOUND,
        },
      },
    },
    async (request) =>
      rollSecret(
        app,
        await request.requireUserId(),
        request.params.id,
        request.body?.overlapHours ?? 24,
      ),
  );

  app.delete<{ Params: { id: string } }>(
    '/webhooks/endpoints/:id',
    {
      config: { apiScope: 'webhooks:manage' },
      schema: {
        ...access.signedIn,
        operationId: 'deleteWebhookEndpoint',
        tags: TAGS,
        summary: 'Deletes an endpoint (its pending deliveries are given up; its history stays)',
        params: idParams('endpoint'),
        response: {
          204: { description: 'Deleted', type: 'null' },
          ...REFUSALS,
          ...NOT_FOUND,
        },
      },
    },
    async (request, reply) => {
      await deleteEndpoint(app, await request.requireUserId(), request.params.id);
      return reply.code(204).send();
    },
  );

  app.get<{ Querystring: { endpointId?: string; cursor?: string; limit: number } }>(
    '/webhooks/deliveries',
    {
      config: { apiScope: 'webhooks:manage' },
      schema: {
        ...access.signedIn,
        operationId: 'listWebhookDeliveries',
        tags: TAGS,
        summary: "The organisation's webhook deliveries with their attempts, newest first",
        description:
          'Each delivery is one event posted to one endpoint: its state, when it is tried next, ' +
          'and every attempt with the status answered, the start of the answer and why it ' +
          'failed. A page at a time: pass `nextCursor` back as `cursor`.',
        querystring: deliveriesQuery,
        response: {
          200: webhookDeliveryListSchema,
          400: refusal('A cursor this list did not answer, or a query out of range'),
          ...REFUSALS,
        },
      },
    },
    async (request) => deliveriesPage(app, await request.requireUserId(), request.query),
  );

  app.get<{ Params: { id: string } }>(
    '/webhooks/deliveries/:id',
    {
      config: { apiScope: 'webhooks:manage' },
      schema: {
        ...access.signedIn,
        operationId: 'getWebhookDelivery',
        tags: TAGS,
        summary: 'One delivery with its attempts',
        params: idParams('delivery'),
        response: { 200: webhookDeliverySchema, ...REFUSALS, ...NOT_FOUND },
      },
    },
    async (request) => oneDelivery(app, await request.requireUserId(), request.params.id),
  );

  app.post<{ Params: { id: string } }>(
    '/webhooks/deliveries/:id/resend',
    {
      config: { apiScope: 'webhooks:manage' },
      schema: {
        ...access.signedIn,
        operationId: 'resendWebhookDelivery',
        tags: TAGS,
        summary: 'Posts a delivery’s event again: a new delivery to the same endpoint, due now',
        description:
          'The body posted is the same event (same `id`), signed anew. Answers the new delivery ' +
          '(`resendOf` names this one); the worker posts it within seconds.',
        params: idParams('delivery'),
        response: {
          202: webhookDeliverySchema,
          ...REFUSALS,
          ...NOT_FOUND,
          409: refusal('Its endpoint was deleted'),
        },
      },
    },
    async (request, reply) => {
      const resent = await resendDelivery(app, await request.requireUserId(), request.params.id);
      return reply.code(202).send(resent);
    },
  );
}
