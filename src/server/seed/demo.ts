import type pg from 'pg';
import type { ServerConfig } from '../config';
import { hashPassword } from '../auth/passwords';
import { seedDemoReview } from './demoReview';

import { DEMO_SIGN_INS } from './demoSignIns';

export { DEMO_SIGN_INS };

/**
 * Seeds the demo accounts into an empty database (development only). Returns whether it seeded.
 * Under an advisory lock: of several servers starting together on one empty database, one seeds
 * and the others, once it has committed, find its users and seed nothing.
 */
export async function seedDemoData(pool: pg.Pool, config: ServerConfig): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtext($1))', ['seed:demo']);
    const existing = await client.query('select 1 from users limit 1');
    if (existing.rowCount) {
      await client.query('rollback');
      return false;
    }
    const [approved, pending, staff] = DEMO_SIGN_INS;
    const approvedOrg = await client.query<{ id: string }>(
      `insert into organizations (name, clearing_org_id, kind) values ($1, $2, 'individual') returning id`,
      ['Avery Quinn', 'NCF-100001'],
    );
    const pendingOrg = await client.query<{ id: string }>(
      `insert into organizations (name, clearing_org_id, kind) values ($1, $2, 'individual') returning id`,
      ['Jordan Lee', 'NCF-100002'],
    );
    const insertUser = async (
      email: string,
      password: string,
      isStaff: boolean,
      details: object | null,
      organizationId: string | null,
    ) =>
      client.query(
        `insert into users (email, password_hash, email_verified_at, is_staff, details, organization_id, roles)
         values ($1, $2, now(), $3, $4, $5, $6)`,
        [
          email,
          await hashPassword(password, config.passwordCost),
          isStaff,
          details,
          organizationId,
          organizationId ? ['Administrator'] : [],
        ],
      );
    await insertUser(
      approved.email,
      approved.password,
      false,
      { firstName: 'Avery', lastName: 'Quinn', phoneNumber: '+13125550100', approved: true },
      approvedOrg.rows[0]!.id,
    );
    await insertUser(
      pending.email,
      pending.password,
      false,
      { firstName: 'Jordan', lastName: 'Lee', phoneNumber: '+13125550101', approved: false },
      pendingOrg.rows[0]!.id,
    );
    await insertUser(staff.email, staff.password, true, null, null);
    await seedDemoReview(client, config, {
      approved: approved.email,
      pending: pending.email,
      staff: staff.email,
    });
    await client.query('commit');
    return true;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}
