/**
 * The SQL of webhooks (issue 40 §5): endpoints, the queue of deliveries and their attempts. An
 * event is queued by the transaction that makes the change it tells of (`queueRegistrationEvent`
 * from `recordStatusChange`, `queueStatementEvent` from `saveStatement`), one delivery for each
 * enabled endpoint of the organisation subscribed to it. Workers claim due deliveries with
 * `FOR UPDATE SKIP LOCKED` and a lease (`claimDueDeliveries`); a delivery waits while an earlier
 * one of its endpoint and ordering key (the registration) is pending.
 */
import type { RegistrationStatus } from '../../shared/api/statuses';
import type { WebhookEventType } from '../../shared/api/webhooks';
import type { Queryable } from './transaction';

export interface WebhookEndpointRow {
  id: string;
  organization_id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  secret: unknown;
  enabled: boolean;
  created_at: Date;
}

const ENDPOINT_COLUMNS =
  'id, organization_id, url, description, events, secret, enabled, created_at';

export async function insertWebhookEndpoint(
  db: Queryable,
  endpoint: {
    id: string;
    organizationId: string;
    url: string;
    description: string;
    events: readonly WebhookEventType[];
    secret: unknown;
    createdBy: string;
  },
): Promise<WebhookEndpointRow> {
  const result = await db.query<WebhookEndpointRow>(
    `insert into webhook_endpoints (id, organization_id, url, description, events, secret, created_by)
     values ($1, $2, $3, $4, $5, $6, $7) returning ${ENDPOINT_COLUMNS}`,
    [
      endpoint.id,
      endpoint.organizationId,
      endpoint.url,
      endpoint.description,
      endpoint.events,
      JSON.stringify(endpoint.secret),
      endpoint.createdBy,
    ],
  );
  return result.rows[0]!;
}

/** The organisation's endpoints not deleted, newest first. */
/** Holds the organisation's row until the transaction ends: one endpoint count at a time. */
export async function lockOrganizationForEndpoints(
  db: Queryable,
  organizationId: string,
): Promise<void> {
  await db.query('select id from organizations where id = $1 for update', [organizationId]);
}

export async function listWebhookEndpoints(
  db: Queryable,
  organizationId: string,
): Promise<WebhookEndpointRow[]> {
  const result = await db.query<WebhookEndpointRow>(
    `select ${ENDPOINT_COLUMNS} from webhook_endpoints
      where organization_id = $1 and deleted_at is null order by created_at desc, id`,
    [organizationId],
  );
  return result.rows;
}

/** Changes what is given; the endpoint as it is now, or null when there is none. */
export async function updateWebhookEndpoint(
  db: Queryable,
  organizationId: string,
  id: string,
  change: {
    url?: string | undefined;
    description?: string | undefined;
    events?: readonly WebhookEventType[] | undefined;
    enabled?: boolean | undefined;
  },
): Promise<WebhookEndpointRow | null> {
  const result = await db.query<WebhookEndpointRow>(
    `update webhook_endpoints set
        url = coalesce($3, url),
        description = coalesce($4, description),
        events = coalesce($5, events),
        enabled = coalesce($6, enabled)
      where id = $1 and organization_id = $2 and deleted_at is null
      returning ${ENDPOINT_COLUMNS}`,
    [id, organizationId, change.url, change.description, change.events, change.enabled],
  );
  return result.rows[0] ?? null;
}

/** The endpoint, its row locked until the transaction ends (replacing its secret); or null. */
export async function lockWebhookEndpoint(
  db: Queryable,
  organizationId: string,
  id: string,
): Promise<WebhookEndpointRow | null> {
  const result = await db.query<WebhookEndpointRow>(
    `select ${ENDPOINT_COLUMNS} from webhook_endpoints
      where id = $1 and organization_id = $2 and deleted_at is null for update`,
    [id, organizationId],
  );
  return result.rows[0] ?? null;
}

/** Stores an endpoint's sealed secrets (webhooks/endpointSecret.ts); the endpoint as it is now. */
export async function replaceWebhookSecret(
  db: Queryable,
  id: string,
  secret: unknown,
): Promise<WebhookEndpointRow> {
  const result = await db.query<WebhookEndpointRow>(
    `update webhook_endpoints set secret = $2 where id = $1 returning ${ENDPOINT_COLUMNS}`,
    [id, JSON.stringify(secret)],
  );
  return result.rows[0]!;
}

/**
 * Deletes an endpoint: nothing more is posted to it (its pending deliveries are given up); it
 * and its deliveries stay listed. False when there was none.
 */
export async function deleteWebhookEndpoint(
  db: Queryable,
  organizationId: string,
  id: string,
): Promise<boolean> {
  const result = await db.query(
    `update webhook_endpoints set deleted_at = now()
      where id = $1 and organization_id = $2 and deleted_at is null`,
    [id, organizationId],
  );
  if (result.rowCount === 0) return false;
  await db.query(
    `update webhook_deliveries set state = 'failed', completed_at = now(), leased_until = null
      where endpoint_id = $1 and state = 'pending'`,
    [id],
  );
  return true;
}

/**
 * Queues `type` for every enabled endpoint of the organisation subscribed to it (the event is
 * stored only when one is). Called inside the transaction of the change it tells of.
 */
async function queueEvent(
  db: Queryable,
  event: {
    type: WebhookEventType;
    organizationId: string;
    orderingKey: string;
    data: Record<string, unknown>;
  },
): Promise<void> {
  await db.query(
    `with subscribers as (
       select id from webhook_endpoints
        where organization_id = $1 and deleted_at is null and enabled and $2 = any (events)
     ), event as (
       insert into webhook_events (type, organization_id, ordering_key, data)
       select $2, $1, $3, $4 where exists (select 1 from subscribers)
       returning id
     )
     insert into webhook_deliveries (event_id, endpoint_id, ordering_key)
     select event.id, subscribers.id, $3 from event cross join subscribers
      order by subscribers.id`,
    [event.organizationId, event.type, event.orderingKey, JSON.stringify(event.data)],
  );
}

/** The event a registration's new status is told by. */
const EVENT_OF_STATUS: Record<RegistrationStatus, WebhookEventType> = {
  submitted: 'registration.submitted',
  resubmitted: 'registration.submitted',
  changes_requested: 'registration.changes_requested',
  approved: 'registration.approved',
  rejected: 'registration.rejected',
};

/**
 * Queues the event of a registration's new status (ids, the status and when: nothing of the
 * applicant), ordered behind the registration's earlier events.
 */
export async function queueRegistrationEvent(
  db: Queryable,
  registrationId: string,
  status: RegistrationStatus,
): Promise<void> {
  const type = EVENT_OF_STATUS[status];
  const found = await db.query<{ organization_id: string; form_id: string; now: Date }>(
    'select organization_id, form_id, now() from registrations where id = $1',
    [registrationId],
  );
  const registration = found.rows[0];
  if (!registration) return;
  await queueEvent(db, {
    type,
    organizationId: registration.organization_id,
    orderingKey: `registration:${registrationId}`,
    data: {
      registrationId,
      organizationId: registration.organization_id,
      formId: registration.form_id,
      status,
      changedAt: registration.now.toISOString(),
    },
  });
}

/** Queues `statement.published` for the organisation's endpoints. */
export async function queueStatementEvent(
  db: Queryable,
  statement: { organizationId: string; asOf: string; loadedAt: string },
): Promise<void> {
  await queueEvent(db, {
    type: 'statement.published',
    organizationId: statement.organizationId,
    orderingKey: `statement:${statement.organizationId}`,
    data: statement,
  });
}

/** A delivery claimed by a worker: what it posts, where, with which secret. */
export interface ClaimedDelivery {
  id: string;
  attempts: number;
  leased_until: Date;
  give_up_after: Date;
  endpoint_id: string;
  url: string;
  secret: unknown;
  event_id: string;
  event_type: WebhookEventType;
  event_created_at: Date;
  event_data: Record<string, unknown>;
}

/**
 * Claims up to `limit` due deliveries for `leaseSeconds` from `now`: pending, due, not leased,
 * their endpoint enabled, and no earlier delivery of the same endpoint and ordering key pending
 * (a later event of a registration waits for the earlier one). Rows another worker holds are
 * skipped, never waited for, and a claimed row is leased in the same statement, so two workers
 * never take one delivery at once. The locking choice is a CTE, run once: inside `where id in
 * (…)` the planner may run it again per row, locking rows it then leaves unleased, which every
 * other worker skips (a known trap of `limit … skip locked` in a subquery).
 */
export async function claimDueDeliveries(
  db: Queryable,
  now: Date,
  leaseSeconds: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const result = await db.query<ClaimedDelivery>(
    `with picked as (
       select c.id from webhook_deliveries c
         join webhook_endpoints e on e.id = c.endpoint_id
        where c.state = 'pending' and c.next_attempt_at <= $1
          and (c.leased_until is null or c.leased_until <= $1)
          and e.enabled and e.deleted_at is null
          and not exists (
            select 1 from webhook_deliveries p
             where p.endpoint_id = c.endpoint_id and p.ordering_key = c.ordering_key
               and p.state = 'pending' and p.seq < c.seq)
        order by c.seq
        limit $3
        for update of c skip locked
     ), claimed as (
       update webhook_deliveries d
          set leased_until = $1::timestamptz + make_interval(secs => $2)
         from picked
        where d.id = picked.id
       returning d.*
     )
     select claimed.id, claimed.attempts, claimed.leased_until, claimed.give_up_after,
            claimed.seq, e.id as endpoint_id, e.url, e.secret,
            ev.id as event_id, ev.type as event_type, ev.created_at as event_created_at,
            ev.data as event_data
       from claimed
       join webhook_endpoints e on e.id = claimed.endpoint_id
       join webhook_events ev on ev.id = claimed.event_id
      order by claimed.seq`,
    [now, leaseSeconds, limit],
  );
  return result.rows;
}

/** One attempt's outcome, as recorded. */
interface AttemptRecord {
  attemptedAt: Date;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
  durationMs: number;
}

/**
 * Records an attempt of a claimed delivery and what follows: delivered, retried at `retryAt`, or
 * given up (`retryAt` null after a failure). Only while the lease is still this worker's.
 */
export async function recordDeliveryAttempt(
  db: Queryable,
  claimed: { id: string; leasedUntil: Date },
  attempt: AttemptRecord,
  next: { state: 'delivered' | 'failed' } | { state: 'pending'; retryAt: Date },
): Promise<void> {
  const updated = await db.query(
    `update webhook_deliveries set
        attempts = attempts + 1,
        state = $3,
        next_attempt_at = coalesce($4, next_attempt_at),
        completed_at = case when $3 = 'pending' then null else $5::timestamptz end,
        leased_until = null
      where id = $1 and leased_until = $2 and state = 'pending'`,
    [
      claimed.id,
      claimed.leasedUntil,
      next.state,
      next.state === 'pending' ? next.retryAt : null,
      new Date(attempt.attemptedAt.getTime() + attempt.durationMs),
    ],
  );
  if (updated.rowCount === 0) return; // the lease passed: another worker holds it now
  await db.query(
    `insert into webhook_delivery_attempts
       (delivery_id, attempted_at, status_code, response_excerpt, error, duration_ms)
     values ($1, $2, $3, $4, $5, $6)`,
    [
      claimed.id,
      attempt.attemptedAt,
      attempt.statusCode,
      attempt.responseExcerpt,
      attempt.error,
      attempt.durationMs,
    ],
  );
}

export interface DeliveryRow {
  id: string;
  seq: string;
  endpoint_id: string;
  event_id: string;
  event_type: WebhookEventType;
  state: 'pending' | 'delivered' | 'failed';
  next_attempt_at: Date;
  resend_of: string | null;
  created_at: Date;
  completed_at: Date | null;
  attempts: {
    attemptedAt: string;
    statusCode: number | null;
    responseExcerpt: string | null;
    error: string | null;
    durationMs: number;
  }[];
}

const DELIVERY_SELECT = `
  select d.id, d.seq::text as seq, d.endpoint_id, d.event_id, ev.type as event_type, d.state,
         d.next_attempt_at, d.resend_of, d.created_at, d.completed_at,
         coalesce((select json_agg(json_build_object(
                    'attemptedAt', to_char(a.attempted_at at time zone 'UTC',
                                           'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                    'statusCode', a.status_code, 'responseExcerpt', a.response_excerpt,
                    'error', a.error, 'durationMs', a.duration_ms) order by a.id)
                     from webhook_delivery_attempts a where a.delivery_id = d.id), '[]') as attempts
    from webhook_deliveries d
    join webhook_endpoints e on e.id = d.endpoint_id
    join webhook_events ev on ev.id = d.event_id`;

/**
 * The organisation's deliveries, newest first, `limit + 1` of them after the one of sequence
 * `beforeSeq` (the cursor), of one endpoint when given.
 */
export async function listDeliveries(
  db: Queryable,
  organizationId: string,
  options: { endpointId?: string | undefined; beforeSeq: string | null; limit: number },
): Promise<DeliveryRow[]> {
  const result = await db.query<DeliveryRow>(
    `${DELIVERY_SELECT}
      where e.organization_id = $1 and ($2::uuid is null or d.endpoint_id = $2)
        and ($3::bigint is null or d.seq < $3)
      order by d.seq desc limit $4`,
    [organizationId, options.endpointId ?? null, options.beforeSeq, options.limit + 1],
  );
  return result.rows;
}

export async function findDelivery(
  db: Queryable,
  organizationId: string,
  id: string,
): Promise<DeliveryRow | null> {
  const result = await db.query<DeliveryRow>(
    `${DELIVERY_SELECT} where e.organization_id = $1 and d.id = $2`,
    [organizationId, id],
  );
  return result.rows[0] ?? null;
}

/**
 * Queues the event of a delivery again, to the same endpoint, due now (a new delivery that names
 * the one it resends); its id, or null when the endpoint was deleted.
 */
export async function queueResend(
  db: Queryable,
  organizationId: string,
  deliveryId: string,
): Promise<string | null> {
  const result = await db.query<{ id: string }>(
    `insert into webhook_deliveries (event_id, endpoint_id, ordering_key, resend_of)
     select d.event_id, d.endpoint_id, d.ordering_key, d.id
       from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
      where d.id = $1 and e.organization_id = $2 and e.deleted_at is null
     returning id`,
    [deliveryId, organizationId],
  );
  return result.rows[0]?.id ?? null;
}

/** The advisory lock of the cleanup (`pg_try_advisory_xact_lock`): one instance at a time. */
const CLEANUP_LOCK = 'webhook-deliveries-cleanup';

/**
 * Deletes, in one transaction, up to `batch` deliveries delivered or given up before `before`
 * (their attempts go with them), then the events older than `before` that no delivery names any
 * more; null when another instance holds the cleanup's lock (it is doing this now). A pending
 * delivery is never deleted, nor the event it names: an event is deleted only once no delivery of
 * it is left, and is locked first (SKIP LOCKED), so a resend being queued for it right now keeps it.
 */
export async function deleteOldDeliveries(
  db: Queryable,
  before: Date,
  batch: number,
): Promise<{ deliveries: number; events: number } | null> {
  const locked = await db.query<{ locked: boolean }>(
    'select pg_try_advisory_xact_lock(hashtext($1)) as locked',
    [CLEANUP_LOCK],
  );
  if (!locked.rows[0]!.locked) return null;
  const deliveries = await db.query(
    `with old as (
       select id from webhook_deliveries
        where state in ('delivered', 'failed') and completed_at < $1
        order by completed_at limit $2
        for update skip locked)
     delete from webhook_deliveries d using old where d.id = old.id`,
    [before, batch],
  );
  const events = await db.query(
    `with old as (
       select ev.id from webhook_events ev
        where ev.created_at < $1
          and not exists (select 1 from webhook_deliveries d where d.event_id = ev.id)
        order by ev.created_at limit $2
        for update skip locked)
     delete from webhook_events ev using old where ev.id = old.id`,
    [before, batch],
  );
  return { deliveries: deliveries.rowCount ?? 0, events: events.rowCount ?? 0 };
}

/** The database's clock (a transaction's start): times stored and compared in one clock. */
export async function databaseNow(db: Queryable): Promise<Date> {
  return (await db.query<{ now: Date }>('select now()')).rows[0]!.now;
}
