-- Submitted registrations: the answers with the prompts they were given under, and their files.
create table registrations (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  organization_id uuid not null references organizations (id),
  form_id text not null,
  -- The content hash of the schema version (wording) the user answered.
  schema_hash text not null,
  -- Answers as validated (file answers are references to registration_documents).
  answers jsonb not null,
  -- The prompt+value payload, sections as sent (userInfo, individualInfo, …).
  payload jsonb not null,
  -- Identifies a resubmission of the same answers (double click, retry after a timeout).
  submission_hash text not null,
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  submitted_at timestamptz not null default now(),
  submitted_from_ip text,
  reviewed_by uuid references users (id),
  reviewed_at timestamptz
);
-- One registration per user: a second one waits for staff (or is the same one, sent twice).
create unique index registrations_user_key on registrations (user_id);
create index registrations_status_idx on registrations (status, submitted_at);

create table registration_documents (
  id uuid primary key default gen_random_uuid(),
  registration_id uuid not null references registrations (id) on delete cascade,
  -- The multipart part: the answer's field (`photoId`) or `document.<agreement>`.
  part text not null,
  storage_name text not null,
  original_name text not null,
  content_type text not null,
  size integer not null,
  unique (registration_id, part)
);
