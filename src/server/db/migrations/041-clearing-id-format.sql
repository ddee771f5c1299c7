-- One format for clearing ids: the firm's prefix and a six-digit number (NCF-100001), as the demo
-- data, the README and the operator tools write them. Numbers come from a sequence, so several
-- servers never hand out the same one; 100001-100100 stay free for seeded organisations.
create sequence clearing_org_number start with 100101;
select setval(
  'clearing_org_number',
  greatest(
    100100,
    coalesce(
      (select max(substr(clearing_org_id, 5)::bigint) from organizations
        where clearing_org_id ~ '^NCF-[0-9]{6,12}$'),
      0
    )
  )
);

create function next_clearing_org_id() returns text
  language sql volatile
  as $$ select 'NCF-' || nextval('clearing_org_number')::text $$;

-- Organisations registered before this change carried NCF- and eight hex digits: renumber them.
update organizations set clearing_org_id = next_clearing_org_id()
 where clearing_org_id !~ '^NCF-[0-9]{6,12}$';
