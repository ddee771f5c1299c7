-- The audit trail becomes a hash chain nobody can edit (ASVS 16.3, 16.4.2; CFTC 1.31).
--
-- Each row carries `seq` (gapless, the chain's order), `prev_hash` (the hash of the row before)
-- and `hash` = SHA-256 over `prev_hash` and the row's canonical text (audit_canonical below). A
-- BEFORE INSERT trigger fills the three from the one head row, locked FOR UPDATE: appends from
-- every instance on this database are serialised there, inside the transaction of the event, so
-- the chain never forks and a rolled-back event leaves no row. Whatever a caller passes for
-- them is overwritten.
--
-- UPDATE, DELETE and TRUNCATE raise, whoever asks (the owner included, unless it disables the
-- triggers first, which `npm run admin -- verify-audit` then catches). Where the portal runs as
-- a role of its own, that role is granted INSERT and SELECT only (README, external PostgreSQL).

-- Rows name users and registrations by id only: the unused `ip` column goes.
alter table audit_log drop column ip;
alter table audit_log
  add column seq bigint,
  add column registration_id uuid,
  add column prev_hash text,
  add column hash text;

-- The registration an event concerns becomes a column (the staff console lists a registration's
-- events by it); earlier rows kept it in `detail`.
update audit_log
   set registration_id = (detail ->> 'registrationId')::uuid,
       detail = detail - 'registrationId'
 where detail ->> 'registrationId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

create table audit_chain_head (
  only_row boolean primary key default true check (only_row),
  last_seq bigint not null,
  last_hash text not null
);
insert into audit_chain_head (last_seq, last_hash) values (0, repeat('0', 64));

/* The text a row's hash covers: every column but `id` (a sequence value, not content) and the
   hashes. jsonb's text form is deterministic (keys sorted, one spelling per value), and the time
   is written to the microsecond in UTC, whatever the session's time zone. */
create function audit_canonical(entry audit_log) returns text
language sql stable as $$
  select jsonb_build_array(
    entry.seq,
    to_char(entry.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    entry.actor_user_id,
    entry.action,
    entry.subject,
    entry.registration_id,
    entry.detail
  )::text
$$;

create function audit_hash(prev_hash text, canonical text) returns text
language sql immutable as $$
  select encode(sha256(convert_to(prev_hash || canonical, 'UTF8')), 'hex')
$$;

create function audit_log_append() returns trigger
language plpgsql as $$
declare
  head audit_chain_head;
begin
  select * into head from audit_chain_head for update;
  new.seq := head.last_seq + 1;
  new.prev_hash := head.last_hash;
  new.hash := audit_hash(new.prev_hash, audit_canonical(new));
  update audit_chain_head set last_seq = new.seq, last_hash = new.hash;
  return new;
end
$$;

-- Chain the rows already there, oldest first.
do $$
declare
  entry audit_log;
begin
  for entry in select * from audit_log order by id loop
    select last_seq + 1, last_hash into entry.seq, entry.prev_hash from audit_chain_head;
    entry.hash := audit_hash(entry.prev_hash, audit_canonical(entry));
    update audit_log set seq = entry.seq, prev_hash = entry.prev_hash, hash = entry.hash
     where id = entry.id;
    update audit_chain_head set last_seq = entry.seq, last_hash = entry.hash;
  end loop;
end
$$;

alter table audit_log
  alter column seq set not null,
  alter column prev_hash set not null,
  alter column hash set not null,
  add constraint audit_log_seq_key unique (seq);
create index audit_log_registration_idx on audit_log (registration_id, seq)
  where registration_id is not null;

create trigger audit_log_append before insert on audit_log
  for each row execute function audit_log_append();

create function audit_log_refuse_change() returns trigger
language plpgsql as $$
begin
  raise exception 'The audit log is append-only: % is not allowed.', tg_op
    using errcode = 'insufficient_privilege';
end
$$;

create trigger audit_log_no_update_or_delete before update or delete on audit_log
  for each row execute function audit_log_refuse_change();
create trigger audit_log_no_truncate before truncate on audit_log
  for each statement execute function audit_log_refuse_change();
create trigger audit_chain_head_no_delete before delete or truncate on audit_chain_head
  for each statement execute function audit_log_refuse_change();

revoke update, delete, truncate on audit_log from public;
