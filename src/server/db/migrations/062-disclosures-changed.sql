-- Every instance caches the public disclosures listing; any change to the documents (the CLI,
-- the staff console, the seed, on any instance) tells them all at commit.
create function notify_disclosures_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('disclosures_changed', '');
  return null;
end $$;
create trigger disclosure_documents_changed
  after insert or update or delete on disclosure_documents
  for each statement execute function notify_disclosures_changed();
