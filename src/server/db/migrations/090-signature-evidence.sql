-- What a court or auditor asks of each agreement signed (issue 17): the document, the SHA-256 of
-- the exact bytes attached, the server time, address, user agent, the user and the version of
-- the e-sign consent text. Written in the registration's transaction; never updated.
create table signature_evidence (
  id uuid primary key default gen_random_uuid(),
  registration_id uuid not null references registrations (id) on delete cascade,
  -- The attached copy (its bytes in stored_files).
  registration_document_id uuid not null unique references registration_documents (id) on delete cascade,
  -- The multipart part (`document.agreeTermsOfService`) and the agreement's prompt as shown.
  part text not null,
  prompt text not null,
  -- The document's id: where the portal publishes it (`/assets/pdfs/terms-of-service.pdf`).
  document_url text not null,
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  -- The SHA-256 of the document this server published at that address when it was signed.
  published_sha256 text check (published_sha256 ~ '^[0-9a-f]{64}$'),
  signed_at timestamptz not null default now(),
  ip text,
  user_agent text,
  user_id uuid not null,
  user_email text not null,
  -- The name the signer signed with (the signature's value), if the form asks for one.
  signer_name text,
  -- The e-sign consent text in force: its address and the SHA-256 of its bytes as published.
  consent_document_url text not null,
  consent_sha256 text,
  -- The wording version of the form (the prompts the signer saw).
  schema_hash text not null
);
create index signature_evidence_registration_idx on signature_evidence (registration_id);

-- Evidence is written once: a change would defeat its purpose.
create function signature_evidence_is_final() returns trigger language plpgsql as $$
begin
  raise exception 'signature evidence is never changed';
end $$;
create trigger signature_evidence_final before update on signature_evidence
  for each row execute function signature_evidence_is_final();
