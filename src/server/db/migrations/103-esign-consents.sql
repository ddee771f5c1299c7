-- The applicant's consent to electronic records and signatures (ESIGN 15 U.S.C. 7001(c)), given
-- in the dialog before the first signature (issue 17). The version is the SHA-256 of the consent
-- document as published when it was given: a new document asks again. Never updated.
create table esign_consents (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  -- Where the consent document is published, and the SHA-256 of its bytes then (the version).
  document_url text not null,
  consent_sha256 text not null check (consent_sha256 ~ '^[0-9a-f]{64}$'),
  given_at timestamptz not null default now(),
  ip text,
  user_agent text,
  -- One consent per user and version: confirming again answers the row already given.
  unique (user_id, consent_sha256)
);

create function esign_consent_is_final() returns trigger language plpgsql as $$
begin
  raise exception 'an e-sign consent is never changed';
end $$;
create trigger esign_consent_final before update on esign_consents
  for each row execute function esign_consent_is_final();

-- Each signature's evidence names the consent it relied on (rows signed before consents were
-- recorded name none).
alter table signature_evidence
  add column esign_consent_id uuid references esign_consents (id);
