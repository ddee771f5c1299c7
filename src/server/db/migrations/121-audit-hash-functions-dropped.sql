-- The audit chain's hashes are computed by the portal only (issue 39 §1).
--
-- Migration 085's audit_canonical() and audit_hash() stayed behind when migration 112 moved the
-- hashing into the portal; nothing calls them since. They let whoever holds the database
-- recompute a whole chain of valid unkeyed (version 1) rows in one statement, which is how the
-- chain was downgraded in issue 39. Gone: the portal builds each row's text and hash itself
-- (audit/auditChainKeys.ts), and the first keyed row is pinned outside the database
-- (AUDIT_CHAIN_KEYED_FROM and every checkpoint), so an owner who writes such functions again
-- still cannot make a downgraded chain verify.
drop function audit_hash(text, text);
drop function audit_canonical(audit_log);
