-- A recovery voids the invitations the account sent (issue 39 §2, db/tokens.ts
-- cancelAccountLinks): they are found by their sender without reading every token ever issued.
create index auth_tokens_invited_by_idx on auth_tokens ((data ->> 'invitedBy'))
  where purpose = 'invite' and used_at is null;
