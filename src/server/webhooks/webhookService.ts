/**
 * What the webhook routes do (issue 40 §5), for an Administrator of an organisation: register,
 * list, change and delete its endpoints (the signing secret shown once, stored sealed), list the
 * deliveries with their attempts, resend one. Every query is bounded by the caller's
 * organisation: another organisation's endpoint or delivery answers 404, as one that does not
 * exist.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type {
  CreatedWebhookEndpoint,
  CreateWebhookEndpoint,
  RolledWebhookSecret,
  UpdateWebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
} from '../../shared/api/webhooks';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { findUserRowById } from '../db/users';
import { withTransaction } from '../db/transaction';
import {
  deleteWebhookEndpoint,
  findDelivery,
  insertWebhookEndpoint,
  listDeliveries,
  listWebhookEndpoints,
  lockOrganizationForEndpoints,
  databaseNow,
  lockWebhookEndpoint,
  queueResend,
  replaceWebhookSecret,
  updateWebhookEndpoint,
  type DeliveryRow,
  type WebhookEndpointRow,
} from '../db/webhooks';
import { administeredOrganization } from '../auth/organizationAdmin';
import { ClientError, notFound, unauthorized } from '../errors';
import { decodeCursor, pageOf, type CursorShape } from '../pagination';
import { endpointUrlRefusal } from './endpointAddress';
import { openEndpointSecret, sealEndpointSecret } from './endpointSecret';
import { newWebhookSecret } from './signature';

/** The most endpoints one organisation keeps. */
const MAX_ENDPOINTS = 20;

/**
 * The organisation `userId` administers (auth/organizationAdmin.ts decides, as for settings and
 * credentials); 403 for anyone else.
 */
async function organizationOf(app: FastifyInstance, userId: string): Promise<string> {
  const row = await findUserRowById(app.db, userId);
  if (!row) throw unauthorized();
  return administeredOrganization(app.db, row);
}

const toEndpoint = (row: WebhookEndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  createdAt: row.created_at.toISOString(),
});

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  eventType: row.event_type,
  state: row.state,
  nextAttemptAt: row.state === 'pending' ? row.next_attempt_at.toISOString() : null,
  resendOf: row.resend_of,
  createdAt: row.created_at.toISOString(),
  completedAt: row.completed_at?.toISOString() ?? null,
  attempts: row.attempts,
});

/** 422 naming the URL when the address policy refuses it (endpointAddress.ts). */
function checkUrl(app: FastifyInstance, url: string): void {
  const refusal = endpointUrlRefusal(url, app.config.production);
  if (refusal) throw new ClientError(422, refusal, { '/url': refusal });
}

export async function listEndpoints(
  app: FastifyInstance,
  userId: string,
): Promise<{ data: WebhookEndpoint[] }> {
  const organizationId = await organizationOf(app, userId);
  return { data: (await listWebhookEndpoints(app.db, organizationId)).map(toEndpoint) };
}

/** Registers an endpoint; its secret is in this answer only. */
export async function createEndpoint(
  app: FastifyInstance,
  userId: string,
  body: CreateWebhookEndpoint,
): Promise<CreatedWebhookEndpoint> {
  const organizationId = await organizationOf(app, userId);
  checkUrl(app, body.url);
  const id = crypto.randomUUID();
  const secret = newWebhookSecret();
  const row = await withTransaction(app.db, async (db) => {
    // One count per organisation at a time (two registrations at once cannot pass the cap).
    await lockOrganizationForEndpoints(db, organizationId);
    if ((await listWebhookEndpoints(db, organizationId)).length >= MAX_ENDPOINTS) {
      throw new ClientError(
        409,
        `An organisation keeps at most ${MAX_ENDPOINTS} webhook endpoints; delete one first.`,
      );
    }
    const inserted = await insertWebhookEndpoint(db, {
      id,
      organizationId,
      url: body.url,
      description: body.description ?? '',
      events: [...new Set(body.events)],
      secret: sealEndpointSecret(app.fieldKeys, id, secret),
      createdBy: userId,
    });
    await recordAuditEvent(db, {
      action: 'webhook.endpoint-created',
      actorUserId: userId,
      detail: { organizationId, endpointId: id, events: inserted.events },
    });
    return inserted;
  });
  return { ...toEndpoint(row), secret };
}

export async function updateEndpoint(
  app: FastifyInstance,
  userId: string,
  id: string,
  body: UpdateWebhookEndpoint,
): Promise<WebhookEndpoint> {
  const organizationId = await organizationOf(app, userId);
  if (body.url !== undefined) checkUrl(app, body.url);
  const row = await withTransaction(app.db, async (db) => {
    const updated = await updateWebhookEndpoint(db, organizationId, id, {
      ...body,
      events: body.events ? [...new Set(body.events)] : undefined,
    });
    if (!updated) throw notFound('No such webhook endpoint.');
    await recordAuditEvent(db, {
      action: 'webhook.endpoint-changed',
      actorUserId: userId,
      detail: { organizationId, endpointId: id, changed: Object.keys(body) },
    });
    return updated;
  });
  return toEndpoint(row);
}

/**
 * Replaces an endpoint's signing secret with a new one, answered this once. For `overlapHours`
 * the replaced secret signs every post too (a second `v1=`, as Stripe does while a secret is
 * rolled), so a receiver can move to the new one without refusing a post meanwhile; 0 ends it
 * at once (a leaked secret). A secret still overlapping from an earlier roll ends now: one old
 * secret at a time. Audited, with the overlap.
 */
export async function rollSecret(
  app: FastifyInstance,
  userId: string,
  id: string,
  overlapHours: number,
): Promise<RolledWebhookSecret> {
  const organizationId = await organizationOf(app, userId);
  const secret = newWebhookSecret();
  return withTransaction(app.db, async (db) => {
    const endpoint = await lockWebhookEndpoint(db, organizationId, id);
    if (!endpoint) throw notFound('No such webhook endpoint.');
    const now = await databaseNow(db);
    const until = overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3_600_000) : null;
    const previous = until
      ? { secret: openEndpointSecret(app.fieldKeys, id, endpoint.secret), until }
      : undefined;
    const row = await replaceWebhookSecret(
      db,
      id,
      sealEndpointSecret(app.fieldKeys, id, secret, previous),
    );
    await recordAuditEvent(db, {
      action: 'webhook.endpoint-secret-rolled',
      actorUserId: userId,
      detail: { organizationId, endpointId: id, overlapHours },
    });
    return { ...toEndpoint(row), secret, previousSecretExpiresAt: until?.toISOString() ?? null };
  });
}

export async function deleteEndpoint(
  app: FastifyInstance,
  userId: string,
  id: string,
): Promise<void> {
  const organizationId = await organizationOf(app, userId);
  await withTransaction(app.db, async (db) => {
    if (!(await deleteWebhookEndpoint(db, organizationId, id))) {
      throw notFound('No such webhook endpoint.');
    }
    await recordAuditEvent(db, {
      action: 'webhook.endpoint-deleted',
      actorUserId: userId,
      detail: { organizationId, endpointId: id },
    });
  });
}

const DELIVERIES: CursorShape = { list: 'webhookDeliveries', parts: ['int'] };

export async function deliveriesPage(
  app: FastifyInstance,
  userId: string,
  query: { endpointId?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<WebhookDeliveryList> {
  const organizationId = await organizationOf(app, userId);
  const after = decodeCursor(DELIVERIES, query.cursor);
  const rows = await listDeliveries(app.db, organizationId, {
    endpointId: query.endpointId,
    beforeSeq: after?.[0] ?? null,
    limit: query.limit,
  });
  return pageOf(rows, query.limit, DELIVERIES, (row) => [row.seq], toDelivery);
}

export async function oneDelivery(
  app: FastifyInstance,
  userId: string,
  id: string,
): Promise<WebhookDelivery> {
  const organizationId = await organizationOf(app, userId);
  const row = await findDelivery(app.db, organizationId, id);
  if (!row) throw notFound('No such webhook delivery.');
  return toDelivery(row);
}

/** Queues the delivery's event again to its endpoint (a new delivery, due now). */
export async function resendDelivery(
  app: FastifyInstance,
  userId: string,
  id: string,
): Promise<WebhookDelivery> {
  const organizationId = await organizationOf(app, userId);
  const resent = await withTransaction(app.db, async (db) => {
    const original = await findDelivery(db, organizationId, id);
    if (!original) throw notFound('No such webhook delivery.');
    const newId = await queueResend(db, organizationId, id);
    if (!newId)
      throw new ClientError(409, 'Its endpoint was deleted: nothing can be resent to it.');
    await recordAuditEvent(db, {
      action: 'webhook.delivery-resent',
      actorUserId: userId,
      detail: { organizationId, deliveryId: id, resentAs: newId },
    });
    return (await findDelivery(db, organizationId, newId))!;
  });
  return toDelivery(resent);
}
