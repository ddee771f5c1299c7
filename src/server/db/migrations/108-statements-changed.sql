-- Every instance caches each organisation's serialised statement (the statement GET); a new or
-- corrected statement, loaded on any instance or by any tool, tells them all at commit.
create function notify_statements_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('statements_changed',
    (case when tg_op = 'DELETE' then old.organization_id else new.organization_id end)::text);
  return null;
end $$;
create trigger statements_changed
  after insert or update or delete on statements
  for each row execute function notify_statements_changed();
