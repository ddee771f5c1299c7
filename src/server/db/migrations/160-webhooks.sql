-- Webhooks (issue 40 §5): an organisation's endpoints, the events told to them and each delivery
-- with its attempts. A delivery is queued in the transaction of the change it tells of, so a
-- change committed is told and a change rolled back is not; the delivery worker of any instance
-- takes due deliveries with FOR UPDATE SKIP LOCKED and a lease (src/server/webhooks/).

create table webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id) on delete cascade,
  url text not null,
  description text not null default '',
  events text[] not null,
  -- {"secret": {"$sealed": "v1.<key-id>.…"}}: the signing secret sealed under
  -- FIELD_ENCRYPTION_KEYS, bound to this column and row (fieldEncryption/sealedJson.ts). It must be
  -- read back to sign, so it is encrypted, not hashed; it is shown once, when made.
  secret jsonb not null,
  enabled boolean not null default true,
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- Deleted endpoints stay, so their deliveries can still be listed; nothing more is sent.
  deleted_at timestamptz
);
create index webhook_endpoints_organization_idx on webhook_endpoints (organization_id)
  where deleted_at is null;

-- What happened, with ids, statuses and timestamps only (never a name, an email or an answer).
create table webhook_events (
  id uuid primary key default gen_random_uuid(),
  type text not null check (type in (
    'registration.submitted', 'registration.changes_requested', 'registration.approved',
    'registration.rejected', 'statement.published')),
  organization_id uuid not null references organizations (id) on delete cascade,
  -- Events of one key reach an endpoint in the order they were made (`registration:<id>`).
  ordering_key text not null,
  data jsonb not null,
  created_at timestamptz not null default now()
);

create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  -- The queue's order: a delivery waits while an earlier one of its endpoint and ordering key
  -- is still pending.
  seq bigserial not null unique,
  event_id uuid not null references webhook_events (id) on delete cascade,
  endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
  ordering_key text not null,
  state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- No attempt is planned after this (retries with backoff for 72 hours).
  give_up_after timestamptz not null default now() + interval '72 hours',
  -- Held by one worker until then (a worker that died mid-attempt frees it when it passes).
  leased_until timestamptz,
  -- A resend of an earlier delivery of the same event.
  resend_of uuid references webhook_deliveries (id) on delete set null,
  created_at timestamptz not null default now(),
  completed_at timestamptz
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
  where state = 'pending';
create index webhook_deliveries_order_idx on webhook_deliveries (endpoint_id, ordering_key, seq)
  where state = 'pending';
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, seq desc);

-- Every attempt: when, the status answered (null when none came), the start of the answer, why it
-- failed.
create table webhook_delivery_attempts (
  id bigserial primary key,
  delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
  attempted_at timestamptz not null,
  status_code integer,
  response_excerpt text,
  error text,
  duration_ms integer not null
);
create index webhook_delivery_attempts_delivery_idx on webhook_delivery_attempts (delivery_id, id);
