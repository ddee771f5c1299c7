-- Customer statements loaded by staff, and what staff review records.

-- One statement per organisation and day; loading the same day again replaces it.
create table statements (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id) on delete cascade,
  -- The Statement of src/shared/api/statement.ts, validated before it is stored.
  statement jsonb not null,
  as_of date not null,
  loaded_at timestamptz not null default now(),
  -- Null when loaded by an operator command rather than a signed-in staff member.
  loaded_by uuid references users (id),
  unique (organization_id, as_of)
);
create index statements_latest_idx on statements (organization_id, as_of desc, loaded_at desc);

-- The KYC decision: why a registration was rejected (shown to staff, never to the public).
alter table registrations add column decision_reason text;

-- Approval of the organisation as a clearing participant, after its KYC approval.
alter table organizations
  add column participant_status text not null default 'pending'
    check (participant_status in ('pending', 'approved', 'rejected')),
  add column participant_decided_by uuid references users (id),
  add column participant_decided_at timestamptz,
  add column participant_reason text;
