/**
 * What a database owner who edits the audit trail around its triggers writes (issues 27, 39):
 * migration 085's unkeyed formula spelled out in SQL, since the database's own audit_canonical()
 * and audit_hash() are gone (migration 121) and an attacker would simply write them again.
 */

/** The canonical text of `row` (a row variable or table name), as migration 085 built it. */
export const canonicalSql = (row: string) =>
  `jsonb_build_array(${row}.seq, to_char(${row}.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), ` +
  `${row}.actor_user_id, ${row}.action, ${row}.subject, ${row}.registration_id, ${row}.detail)::text`;

/** The unkeyed (version 1) hash of `row` linked to `previous`: plain SHA-256, no key needed. */
export const unkeyedHashSql = (previous: string, row: string) =>
  `encode(sha256(convert_to(${previous} || ${canonicalSql(row)}, 'UTF8')), 'hex')`;
