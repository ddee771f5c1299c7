-- Changes requested field by field, resubmission, the status history and every submitted version
-- (issue 17, docs/decisions.md, Applicants and reviewers).

-- A resubmitted registration waits for review again, beside one submitted for the first time.
alter table registrations drop constraint registrations_status_check;
alter table registrations
  add constraint registrations_status_check
    check (status in ('pending', 'changes_requested', 'resubmitted', 'approved', 'rejected'));

-- What staff asked to change while the status is changes_requested:
-- { "note": "…" | null, "fields": [{ "path": "<JSON pointer>", "note": "…" }] }.
alter table registrations add column change_request jsonb;

-- Every status a registration took, when and by whom (null: an operator command, or a row that
-- predates this history).
create table registration_status_changes (
  id bigserial primary key,
  registration_id uuid not null references registrations (id) on delete cascade,
  status text not null
    check (status in ('pending', 'changes_requested', 'resubmitted', 'approved', 'rejected')),
  changed_at timestamptz not null default now(),
  changed_by uuid references users (id) on delete set null,
  -- Who acted, as the applicant's timeline says it: the applicant, staff, or an operator.
  actor text not null check (actor in ('applicant', 'staff', 'operator'))
);
create index registration_status_changes_idx
  on registration_status_changes (registration_id, changed_at, id);

-- Registrations stored before this history: their submission, and their decision if taken.
insert into registration_status_changes (registration_id, status, changed_at, changed_by, actor)
  select id, 'pending', submitted_at, user_id, 'applicant' from registrations;
insert into registration_status_changes (registration_id, status, changed_at, changed_by, actor)
  select id, status, coalesce(reviewed_at, submitted_at), reviewed_by,
         case when reviewed_by is null then 'operator' else 'staff' end
    from registrations where status <> 'pending';

-- Every submission and resubmission as it was sent: the answers (sensitive ones sealed, bound
-- to this table, the registration and the version), the schema hash they were answered under,
-- and the documents attached ({ "<part>": { name, type, size, sha256, storageName } }).
-- Registrations stored before this table get their version 1 from the registration row when
-- first resubmitted (their sealed answers are bound to registrations.answers).
create table registration_versions (
  id uuid primary key default gen_random_uuid(),
  registration_id uuid not null references registrations (id) on delete cascade,
  version integer not null check (version >= 1),
  schema_hash text not null,
  answers jsonb not null,
  documents jsonb not null,
  submitted_at timestamptz not null default now(),
  unique (registration_id, version)
);

-- The bytes of a document an earlier version attached stay while any version names them: a
-- replaced W-2 is evidence of what was reviewed (the delete is skipped, not failed).
create function keep_version_documents() returns trigger language plpgsql as $$
begin
  if exists (
    select 1 from registration_versions v, jsonb_each(v.documents) d
     where d.value->>'storageName' = old.storage_name
  ) then
    return null;
  end if;
  return old;
end $$;
create trigger stored_files_kept_by_versions before delete on stored_files
  for each row execute function keep_version_documents();

-- A version deleted (its registration or user deleted) takes along the bytes only it named.
create function delete_version_documents() returns trigger language plpgsql as $$
declare
  name text;
begin
  for name in select d.value->>'storageName' from jsonb_each(old.documents) d loop
    if name is not null
       and not exists (select 1 from registration_documents where storage_name = name)
       and not exists (select 1 from user_documents where storage_name = name)
       and not exists (select 1 from application_files where storage_name = name)
       and not exists (
         select 1 from registration_versions v, jsonb_each(v.documents) e
          where v.id <> old.id and e.value->>'storageName' = name) then
      delete from stored_files where storage_name = name;
    end if;
  end loop;
  return null;
end $$;
create trigger registration_versions_bytes after delete on registration_versions
  for each row execute function delete_version_documents();
