-- Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
-- has proved an account's password (signed in, verified the email, accepted an invitation) holds a
-- token of that account, and its later sign-ins to the same account are hashed ahead of the queue,
-- so a flood of guesses cannot keep a returning user out.
-- Only the token's SHA-256 is stored; a password reset forgets every device of the account.
create table device_cookies (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  expires_at timestamptz not null
);
create index device_cookies_user_idx on device_cookies (user_id);
