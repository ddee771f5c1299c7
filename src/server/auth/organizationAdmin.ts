import { refuseOwnOrganization } from '../admin/ownOrganization';
import type { UserRow } from '../db/users';
import type { Queryable } from '../db/transaction';
import { forbidden } from '../errors';

/**
 * The caller's organisation, when they are its Administrator; 403 otherwise. A member of staff
 * never acts on their own organisation's behalf (issue 39 §3, admin/ownOrganization.ts). Used by
 * the settings an Administrator changes (invitations, roles) and by API credentials.
 */
export async function administeredOrganization(db: Queryable, row: UserRow): Promise<string> {
  if (!row.organization_id || !row.roles.includes('Administrator')) {
    throw forbidden('Only an Administrator of your organisation can do this.');
  }
  if (row.is_staff) {
    await refuseOwnOrganization(db, 'settings', { organizationId: row.organization_id }, row.id);
  }
  return row.organization_id;
}
