import type pg from 'pg';
import type { Role, User, UserDetails } from '../../shared/api/auth';

/** A users row joined with its organisation, as stored. */
export interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  email_verified_at: Date | null;
  is_staff: boolean;
  details: UserDetails | null;
  organization_id: string | null;
  roles: Role[];
  tutorial_complete: boolean;
  totp_secret: string | null;
  totp_enabled: boolean;
  totp_last_step: string | null;
  org_name: string | null;
  clearing_org_id: string | null;
}

const SELECT_USER = `
  select u.*, o.name as org_name, o.clearing_org_id
    from users u left join organizations o on o.id = u.organization_id`;

/** The user as the API shows it: no password hash, no TOTP secret. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    isNorthstarClearingStaff: row.is_staff,
    details: row.details,
    orgDetails:
      row.organization_id && row.clearing_org_id
        ? { clearingOrgId: row.clearing_org_id, name: row.org_name ?? '' }
        : null,
    organizationId: row.organization_id,
    roles: row.roles,
  };
}

export async function findUserRowById(pool: pg.Pool, id: string): Promise<UserRow | null> {
  const result = await pool.query<UserRow>(`${SELECT_USER} where u.id = $1`, [id]);
  return result.rows[0] ?? null;
}

export async function findUserRowByEmail(pool: pg.Pool, email: string): Promise<UserRow | null> {
  const result = await pool.query<UserRow>(`${SELECT_USER} where lower(u.email) = lower($1)`, [
    email.trim(),
  ]);
  return result.rows[0] ?? null;
}

export async function findUserById(pool: pg.Pool, id: string): Promise<User | null> {
  const row = await findUserRowById(pool, id);
  return row ? toUser(row) : null;
}
