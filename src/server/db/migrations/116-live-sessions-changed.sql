-- The statement GET accepts a live session from its instance's memory (auth/liveSessions.ts).
-- Whatever could change its answer tells every instance at commit: a session ended or moved, its
-- user changed (staff, approval, organisation) or gone, an organisation renamed or gone. An
-- expired session needs no word: the cache keeps each session's own deadlines.
-- The payload: a letter for what changed, then its key (`s<id_hash>`, `u<user id>`, `o<org id>`).
create function notify_live_sessions_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('live_sessions_changed', tg_argv[0] || (to_jsonb(old) ->> tg_argv[1]));
  return null;
end $$;
create trigger sessions_ended
  after delete on sessions
  for each row when (old.expires_at > now())
  execute function notify_live_sessions_changed('s', 'id_hash');
create trigger sessions_moved
  after update of user_id, expires_at, id_hash on sessions
  for each row execute function notify_live_sessions_changed('s', 'id_hash');
create trigger users_changed
  after update or delete on users
  for each row execute function notify_live_sessions_changed('u', 'id');
create trigger organizations_changed
  after update or delete on organizations
  for each row execute function notify_live_sessions_changed('o', 'id');
