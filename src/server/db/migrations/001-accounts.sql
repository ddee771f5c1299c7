-- Users, organisations, sessions and single-use tokens.
create table organizations (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  clearing_org_id text not null unique,
  kind text not null check (kind in ('individual', 'business')),
  created_at timestamptz not null default now()
);

create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  password_hash text,
  email_verified_at timestamptz,
  is_staff boolean not null default false,
  -- firstName, lastName, phoneNumber, approved: null until the user registers.
  details jsonb,
  organization_id uuid references organizations (id),
  roles text[] not null default '{}',
  tutorial_complete boolean not null default false,
  totp_secret text,
  totp_enabled boolean not null default false,
  -- RFC 6238: the last accepted time step, so a code is never accepted twice.
  totp_last_step bigint,
  created_at timestamptz not null default now()
);
create unique index users_email_key on users (lower(email));

create table sessions (
  id_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sessions_user_idx on sessions (user_id);

-- Verification, reset and invitation tokens, stored only as SHA-256 hashes.
create table auth_tokens (
  token_hash text primary key,
  purpose text not null check (purpose in ('verify-email', 'reset-password', 'invite')),
  user_id uuid not null references users (id) on delete cascade,
  data jsonb not null default '{}',
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index auth_tokens_user_idx on auth_tokens (user_id, purpose);

-- Photo IDs and other files a user supplied outside a registration (add_kyc, invitations).
create table user_documents (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  kind text not null,
  storage_name text not null,
  original_name text not null,
  content_type text not null,
  size integer not null,
  created_at timestamptz not null default now()
);

create table audit_log (
  id bigserial primary key,
  at timestamptz not null default now(),
  actor_user_id uuid,
  action text not null,
  subject text,
  ip text,
  detail jsonb not null default '{}'
);
