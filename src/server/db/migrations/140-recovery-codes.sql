-- Recovery codes (issue 38 §4; NIST SP 800-63B-4 §3.1.2 look-up secrets, ASVS 5.0 6.5): ten
-- one-time codes an account holder keeps on paper, each usable once in place of a second factor.
-- Only a salted scrypt hash of each is kept (`scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`, the salt
-- shared by the codes of one set, so a check derives once): the codes have 50 bits, fewer than the
-- 112 that would let a plain hash do. `used_at` marks a code spent; a new set deletes the old one.
create table recovery_codes (
  user_id uuid not null references users (id) on delete cascade,
  code_hash text not null,
  created_at timestamptz not null default now(),
  used_at timestamptz,
  primary key (user_id, code_hash)
);
