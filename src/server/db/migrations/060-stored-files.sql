-- Uploaded documents' bytes live in the database (every instance reaches them), written in the
-- same transaction as the row that references them: a registration and its documents commit
-- together, and nothing on disk can be lost or orphaned by a failure after the commit.
-- Files stored on disk before this migration stay there and are still read (DATA_DIR/uploads).
create table stored_files (
  storage_name text primary key check (storage_name ~ '^[a-f0-9]{32}$'),
  bytes bytea not null,
  content_type text not null,
  size integer not null,
  created_at timestamptz not null default now()
);

-- A document row deleted (its registration or user deleted, cascading) takes its bytes along,
-- unless another row still references the same stored file.
create function delete_unreferenced_stored_file() returns trigger language plpgsql as $$
begin
  if not exists (select 1 from registration_documents where storage_name = old.storage_name)
     and not exists (select 1 from user_documents where storage_name = old.storage_name) then
    delete from stored_files where storage_name = old.storage_name;
  end if;
  return null;
end $$;
create trigger registration_documents_bytes after delete on registration_documents
  for each row execute function delete_unreferenced_stored_file();
create trigger user_documents_bytes after delete on user_documents
  for each row execute function delete_unreferenced_stored_file();
