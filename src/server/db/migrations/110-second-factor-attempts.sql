-- Failed second-factor attempts counted per account, whatever the address (NIST SP 800-63B-4
-- §3.2.2; issue 27 §1): in the users row, so every instance behind the load balancer shares them.
-- `second_factor_failures` counts consecutive failures (a success resets it);
-- `second_factor_blocked_until` is when the next attempt may be checked (a growing wait, then a
-- lock). An attempt is counted before it is checked, so parallel guesses cannot share one slot.
alter table users add column second_factor_failures integer not null default 0;
alter table users add column second_factor_blocked_until timestamptz;

-- A passkey answering a re-authentication on the profile page (issue 27 §2) waits here too.
alter table webauthn_challenges drop constraint webauthn_challenges_purpose_check;
alter table webauthn_challenges add constraint webauthn_challenges_purpose_check
  check (purpose in ('register', 'signin', 'reauth'));
