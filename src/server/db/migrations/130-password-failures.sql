-- Consecutive wrong passwords per account, whatever the address (NIST SP 800-63B-4 §3.2.2; issue
-- 39 §4), in PostgreSQL so every instance behind the load balancer shares the count
-- (auth/passwordFailures.ts). `subject` is 'user:<id>' for an email that names an account and
-- 'email:<keyed digest>' for one that does not, counted the same way, so a wait or a lock tells
-- nothing about whether an account exists. `failures` counts consecutive failures (a right
-- password deletes the row; so does any new password hash: users.ts setPasswordHash);
-- `blocked_until` is when a browser that never signed in to the account may try again. An attempt
-- is counted before its hash is checked, so guesses sent together cannot share one slot.
create table password_failures (
  subject text primary key,
  failures integer not null,
  blocked_until timestamptz,
  updated_at timestamptz not null default now()
);
