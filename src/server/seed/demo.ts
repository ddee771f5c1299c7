import type pg from 'pg';
import type { ServerConfig } from '../config';
import { hashPassword } from '../auth/passwords';
import { anyUserExists, insertDemoOrganization, insertVerifiedUser } from '../db/demoSeed';
import { lockForTransaction, withTransaction } from '../db/transaction';
import type { FormCatalog } from '../../shared/forms/model/compileNode';
import { seedDemoReview } from './demoReview';

import { DEMO_SIGN_INS } from './demoSignIns';

export { DEMO_SIGN_INS };

/**
 * Seeds the demo accounts into an empty database (development only). Returns whether it seeded.
 * Under an advisory lock: of several servers starting together on one empty database, one seeds
 * and the others, once it has committed, find its users and seed nothing.
 */
export async function seedDemoData(
  pool: pg.Pool,
  config: ServerConfig,
  /** The app's forms (`app.forms`): the demo registrations answer the individual form. */
  forms: FormCatalog,
): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    await lockForTransaction(client, 'seed:demo');
    if (await anyUserExists(client)) return false;
    const [approved, pending, staff] = DEMO_SIGN_INS;
    const approvedOrg = await insertDemoOrganization(client, 'Avery Quinn', 'NCF-100001');
    const pendingOrg = await insertDemoOrganization(client, 'Jordan Lee', 'NCF-100002');
    const insertUser = async (
      email: string,
      password: string,
      isStaff: boolean,
      details: object | null,
      organizationId: string | null,
    ) =>
      insertVerifiedUser(client, {
        email,
        passwordHash: await hashPassword(password, config.passwordCost),
        isStaff,
        details,
        organizationId,
        roles: organizationId ? ['Administrator'] : [],
      });
    await insertUser(
      approved.email,
      approved.password,
      false,
      { firstName: 'Avery', lastName: 'Quinn', phoneNumber: '+13125550100', approved: true },
      approvedOrg,
    );
    await insertUser(
      pending.email,
      pending.password,
      false,
      { firstName: 'Jordan', lastName: 'Lee', phoneNumber: '+13125550101', approved: false },
      pendingOrg,
    );
    await insertUser(staff.email, staff.password, true, null, null);
    await seedDemoReview(client, config, forms, {
      approved: approved.email,
      pending: pending.email,
      staff: staff.email,
    });
    return true;
  });
}
