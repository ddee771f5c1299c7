-- The profile page's account security (NIST SP 800-63B-4, ASVS 5.0 level 2).

-- Active sessions: a public id (the stored hash never leaves the server), and what the user needs
-- to recognise each one: the browser's user agent and the address it signed in from.
alter table sessions add column public_id uuid not null default gen_random_uuid();
alter table sessions add column user_agent text;
alter table sessions add column ip text;
create unique index sessions_public_id_key on sessions (public_id);

-- Passkeys (WebAuthn credentials), a second factor beside the authenticator app.
create table passkeys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  -- The credential id as base64url, as browsers and @simplewebauthn hand it over.
  credential_id text not null unique,
  public_key bytea not null,
  -- The authenticator's signature counter (a clone detector when it goes backwards).
  counter bigint not null default 0,
  transports text[] not null default '{}',
  name text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index passkeys_user_idx on passkeys (user_id);

-- A WebAuthn challenge waits here between the options and the answer, so any instance can check
-- the answer. Keyed by the SHA-256 of a random handle the browser holds (a cookie for sign-in).
create table webauthn_challenges (
  id_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  purpose text not null check (purpose in ('register', 'signin')),
  challenge text not null,
  expires_at timestamptz not null
);
create index webauthn_challenges_user_idx on webauthn_challenges (user_id);

-- A change of email is confirmed from the new address.
alter table auth_tokens drop constraint auth_tokens_purpose_check;
alter table auth_tokens add constraint auth_tokens_purpose_check
  check (purpose in ('verify-email', 'reset-password', 'invite', 'change-email'));
