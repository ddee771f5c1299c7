import pg from 'pg';
import type { Queryable } from './transaction';

/** A PostgreSQL role name as operators write it (no quoting games). */
const ROLE_NAME = /^[a-z_][a-z0-9_$]{0,62}$/i;

/**
 * Grants the role the portal runs as what it needs and no more, for an external PostgreSQL where
 * a separate owner role runs the migrations: read and write every table, except the audit trail,
 * which it may only read and append to (UPDATE, DELETE and TRUNCATE stay refused by the database
 * itself, whatever the triggers). Tables and sequences later migrations create get the same grants
 * by default. Run as the owner (`npm run admin -- grant-app-role <role>`), after migrating.
 */
export async function grantAppRole(owner: Queryable, role: string): Promise<void> {
  if (!ROLE_NAME.test(role)) throw new Error(`Not a role name: ${role}`);
  const r = pg.escapeIdentifier(role);
  const schema = (await owner.query<{ schema: string }>('select current_schema() as schema'))
    .rows[0]!.schema;
  const s = pg.escapeIdentifier(schema);
  for (const statement of [
    `grant usage on schema ${s} to ${r}`,
    `grant select, insert, update, delete on all tables in schema ${s} to ${r}`,
    `grant usage, select on all sequences in schema ${s} to ${r}`,
    `alter default privileges in schema ${s} grant select, insert, update, delete on tables to ${r}`,
    `alter default privileges in schema ${s} grant usage, select on sequences to ${r}`,
    // The audit trail: read and append only.
    `revoke update, delete, truncate on ${s}.audit_log from ${r}`,
  ]) {
    await owner.query(statement);
  }
}
