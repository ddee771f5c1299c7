-- Applications on the server (issue 17, docs/decisions.md, Applicants and reviewers): one working
-- copy per user and registration form, saved as the applicant works, so it resumes on any device.
-- Sensitive answers (x-sensitive: SSN, passport number, date of birth) are sealed in `answers` as
-- in registrations (src/server/fieldEncryption), bound to `applications.answers` and the row.
create table applications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  form_id text not null,
  -- The wording version the answers were given under (carried to a newer one by pointer).
  schema_hash text not null,
  answers jsonb not null,
  -- Every save or file change adds one; a save names the revision it started from.
  revision integer not null default 1,
  -- The wizard step the applicant was on (0-based), for resuming there.
  step integer,
  status text not null default 'draft'
    check (status in ('draft', 'submitted', 'changes_requested')),
  -- null, or {"registrationId", "note", "fields": [{"path": "<JSON pointer>", "note"}]}.
  change_request jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, form_id)
);

-- The files of an application, one per file question (its pointer), uploaded when chosen and
-- checked then; the bytes live in stored_files like every document.
create table application_files (
  application_id uuid not null references applications (id) on delete cascade,
  pointer text not null,
  storage_name text not null,
  original_name text not null,
  content_type text not null,
  size integer not null,
  created_at timestamptz not null default now(),
  primary key (application_id, pointer)
);
create index application_files_storage_idx on application_files (storage_name);
create index registration_documents_storage_idx on registration_documents (storage_name);

-- A file row deleted (replaced, removed, or its application deleted) takes its bytes along,
-- unless a registration, a user or another application still references the same stored file.
create or replace function delete_unreferenced_stored_file() returns trigger language plpgsql as $$
begin
  if not exists (select 1 from registration_documents where storage_name = old.storage_name)
     and not exists (select 1 from user_documents where storage_name = old.storage_name)
     and not exists (select 1 from application_files where storage_name = old.storage_name) then
    delete from stored_files where storage_name = old.storage_name;
  end if;
  return null;
end $$;
create trigger application_files_bytes after delete on application_files
  for each row execute function delete_unreferenced_stored_file();
create trigger application_files_replaced after update of storage_name on application_files
  for each row when (old.storage_name is distinct from new.storage_name)
  execute function delete_unreferenced_stored_file();
