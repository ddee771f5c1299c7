-- Stored documents kept out of line without compression (issue 17 speed: a 10 MB upload). The
-- bytes are PDFs and JPEG/PNG/WebP/HEIC photos, already compressed; PostgreSQL's default
-- (`extended`) ran pglz over every one before giving up at the end, about 95 ms of a 10 MB
-- document's 170 ms insert here. `external` stores them as they come. Rows already stored keep
-- their storage; only new values are affected.
alter table stored_files alter column bytes set storage external;
alter table stored_files alter column preview set storage external;
