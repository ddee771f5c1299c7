-- The wording of each form version that answers were saved under, by schema hash (as `json`,
-- which keeps the text as compiled): an application saved under an earlier version is carried
-- to the current one by pointer, and the applicant is told which questions are new, which were
-- reworded and which earlier answers no longer apply.
create table form_versions (
  schema_hash text primary key,
  form_id text not null,
  schema json not null,
  ui_schema json not null,
  created_at timestamptz not null default now()
);

-- What the last carry-over changed ({"added", "reworded", "dropped"}: prompts), shown to the
-- applicant until their next save; null when the answers were saved under the current version.
alter table applications add column carried_over jsonb;
