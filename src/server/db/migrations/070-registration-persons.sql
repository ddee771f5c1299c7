-- The affiliated persons of a business registration, one row each (business spec §3.3), stored
-- in the registration's transaction so staff can list and search them. Their full answers (as
-- validated, sensitive ones included) stay in registrations.answers and the payload; a row
-- repeats what staff sort and find by.
create table registration_persons (
  id uuid primary key default gen_random_uuid(),
  registration_id uuid not null references registrations (id) on delete cascade,
  -- 0-based place in the list as submitted ('Affiliated person 1' is position 0).
  position integer not null check (position >= 0),
  first_name text not null,
  last_name text not null,
  title text,
  ownership_percent integer,
  -- §3.3: sent as a boolean (direct = true).
  is_direct boolean,
  answers jsonb not null,
  unique (registration_id, position)
);
