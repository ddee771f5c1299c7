-- A JPEG rendition of an uploaded image that browsers do not show (a HEIC photo from a phone),
-- kept beside the original bytes so staff can preview it in the console; the original stays as
-- uploaded. Null for everything else.
alter table stored_files add column preview bytea;
