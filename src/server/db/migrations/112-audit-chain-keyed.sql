-- The audit chain keyed with a secret the database does not hold (issue 27, ASVS 16.4.2).
--
-- Until now the database computed each row's hash (plain SHA-256, migration 085), so its owner
-- could switch the triggers off, edit a row, recompute every later hash and the head, and the
-- chain verified. From here on the portal computes the hash: HMAC-SHA-256 under a key derived
-- from AUDIT_CHAIN_KEYS (never stored here) over the same canonical text, and the row says which
-- key (`chain_key`) and which version (`chain_version` 2). Rows written before keep version 1 and
-- verify as they were; a keyed row links to the last of them, so they are pinned too.
--
-- The trigger no longer computes anything: it checks that the row continues the head (its seq
-- and prev_hash), under the head's row lock, and moves the head. It refuses rows without the key
-- (a version-1 insert after this point could only come from outside the portal).
alter table audit_log
  add column chain_version smallint not null default 1 check (chain_version in (1, 2)),
  add column chain_key text;
alter table audit_log alter column chain_version drop default;

create or replace function audit_log_append() returns trigger
language plpgsql as $$
declare
  head audit_chain_head;
begin
  select * into head from audit_chain_head for update;
  if new.chain_version is distinct from 2 or new.chain_key is null or new.hash is null then
    raise exception 'Audit rows are appended by the portal, keyed (chain_version 2).'
      using errcode = 'insufficient_privilege';
  end if;
  if new.seq is distinct from head.last_seq + 1 or new.prev_hash is distinct from head.last_hash then
    raise exception 'The audit row does not continue the chain (row %, the head is at %).',
      new.seq, head.last_seq
      using errcode = 'serialization_failure';
  end if;
  update audit_chain_head set last_seq = new.seq, last_hash = new.hash;
  return new;
end
$$;
