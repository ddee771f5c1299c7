-- Published regulatory disclosure documents (CFTC 1.55(k), 1.55(o)(1)); the PDFs live in
-- DATA_DIR/disclosures under random names. A correction publishes the same period again: the
-- earlier row is kept (superseded), so what was public when stays on record.
create table disclosure_documents (
  id uuid primary key default gen_random_uuid(),
  category text not null check (
    category in (
      'firm-disclosure',
      'daily-segregation',
      'capital-summary',
      'monthly-segregation',
      'audited-financial'
    )
  ),
  -- The period's first day (a day; the 1st of a month; 1 January of a year), by category.
  period date not null,
  storage_name text not null unique,
  size integer not null check (size > 0),
  sha256 text not null,
  published_at timestamptz not null default now(),
  -- A staff user's id, or the operator/CLI that published it ('cli:<operator>', 'seed').
  published_by text not null,
  superseded_at timestamptz
);
-- One current document per category and period.
create unique index disclosure_documents_current_key
  on disclosure_documents (category, period)
  where superseded_at is null;
