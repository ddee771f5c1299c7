-- Documents stored in chunks of at most 2 MiB (issue 17 speed and memory: a 10 MB upload no
-- longer builds one 10 MB query parameter from a 10 MB buffer read whole, and reading one back
-- no longer builds one 10 MB value in the server before sending it). The chunks belong to their
-- `stored_files` row and go with it. Rows stored before keep their bytes in `stored_files.bytes`
-- and are read from there; a row has either its bytes or its chunks, never both.
create table stored_file_chunks (
  storage_name text not null references stored_files (storage_name) on delete cascade,
  seq integer not null check (seq >= 0),
  bytes bytea not null,
  primary key (storage_name, seq)
);
-- Already compressed (PDFs, photos): stored as they come, as migration 106 decided.
alter table stored_file_chunks alter column bytes set storage external;
alter table stored_files alter column bytes drop not null;

-- A stored document's whole bytes wherever they are (for SQL that hashes them: evidence,
-- versions); null when the name is unknown.
create function stored_file_bytes(name text) returns bytea language sql stable as $$
  select coalesce(
    (select f.bytes from stored_files f where f.storage_name = name),
    (select string_agg(c.bytes, ''::bytea order by c.seq)
       from stored_file_chunks c where c.storage_name = name))
$$;
