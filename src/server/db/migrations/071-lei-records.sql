-- Answers of the LEI registry (GLEIF), cached in the database so every server instance shares
-- them and the registry's rate limit (about 60 requests a minute) is spent once per LEI.
create table lei_records (
  lei text primary key,
  -- The LeiRecord of src/shared/api/lei.ts; null when the registry has no such LEI.
  record jsonb,
  fetched_at timestamptz not null default now()
);
