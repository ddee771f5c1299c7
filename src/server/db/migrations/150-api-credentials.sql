-- Server-to-server API credentials (issue 40 §4): an organisation's Administrator makes them on
-- the Profile page; a partner's server sends the secret as `Authorization: Bearer <secret>`. The
-- secret is 256 random bits, so only its SHA-256 is kept (a slow, salted hash protects guessable
-- secrets such as passwords; nothing guesses 256 bits, and a slow hash on every API call would
-- only cost the server). A credential acts as the Administrator who made it, while they remain an
-- Administrator of the organisation; revoking it is a row update every instance reads at once.
create table api_credentials (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id) on delete cascade,
  created_by uuid not null references users (id) on delete cascade,
  name text not null,
  scopes text[] not null,
  secret_hash text not null unique,
  secret_start text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoked_by uuid references users (id) on delete set null
);
create index api_credentials_organization_idx on api_credentials (organization_id, created_at desc);

-- Idempotency-Key (issue 40 §6): the first answer of a state-changing POST, kept 24 hours per
-- owner (a user's session or an API credential) and key. The row is claimed (inserted) before the
-- request runs, so a concurrent duplicate finds it and does not run too; the answer is filled in
-- when it is sent. Expired rows are deleted by a background job.
create table idempotency_keys (
  owner text not null,
  key text not null,
  route text not null,
  fingerprint text not null,
  created_at timestamptz not null default now(),
  status_code integer,
  headers jsonb,
  body bytea,
  primary key (owner, key)
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);
