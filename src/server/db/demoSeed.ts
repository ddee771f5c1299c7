/**
 * The demo data's own writes (development only, seed/): rows that the portal's flows would take
 * days to reach (a decided registration, an admitted participant) are written as they would
 * stand.
 */
import type { Queryable } from './transaction';

/** Whether any user exists: the demo seeds an empty database only. */
export async function anyUserExists(db: Queryable): Promise<boolean> {
  const existing = await db.query('select 1 from users limit 1');
  return Boolean(existing.rowCount);
}

/** An individual's organisation with a fixed clearing id; its id. */
export async function insertDemoOrganization(
  db: Queryable,
  name: string,
  clearingOrgId: string,
): Promise<string> {
  const result = await db.query<{ id: string }>(
    `insert into organizations (name, clearing_org_id, kind) values ($1, $2, 'individual') returning id`,
    [name, clearingOrgId],
  );
  return result.rows[0]!.id;
}

/** A user whose email is already verified. */
export async function insertVerifiedUser(
  db: Queryable,
  user: {
    email: string;
    passwordHash: string;
    isStaff: boolean;
    details: object | null;
    organizationId: string | null;
    roles: string[];
  },
): Promise<void> {
  await db.query(
    `insert into users (email, password_hash, email_verified_at, is_staff, details, organization_id, roles)
     values ($1, $2, now(), $3, $4, $5, $6)`,
    [user.email, user.passwordHash, user.isStaff, user.details, user.organizationId, user.roles],
  );
}

/** A user's id and organisation by email (the seed's own users: present). */
export async function findDemoUser(
  db: Queryable,
  email: string,
): Promise<{ userId: string; organizationId: string }> {
  const row = await db.query<{ id: string; organization_id: string }>(
    'select id, organization_id from users where email = $1',
    [email],
  );
  return { userId: row.rows[0]!.id, organizationId: row.rows[0]!.organization_id };
}

/** A seeded registration approved by `reviewerId`, as if submitted 9 days ago and decided 8. */
export async function backdateApprovedRegistration(
  db: Queryable,
  registrationId: string,
  reviewerId: string,
): Promise<void> {
  await db.query(
    `update registrations set status = 'approved', reviewed_by = $2,
            submitted_at = now() - interval '9 days', reviewed_at = now() - interval '8 days'
      where id = $1`,
    [registrationId, reviewerId],
  );
}

/** A seeded registration awaiting review, as if submitted 2 hours ago. */
export async function backdateSubmittedRegistration(
  db: Queryable,
  registrationId: string,
): Promise<void> {
  await db.query(
    `update registrations set submitted_at = now() - interval '2 hours' where id = $1`,
    [registrationId],
  );
}

/** An organisation admitted as a participant by `decidedBy` 8 days ago. */
export async function backdateParticipantApproval(
  db: Queryable,
  organizationId: string,
  decidedBy: string,
): Promise<void> {
  await db.query(
    `update organizations set participant_status = 'approved', participant_decided_by = $2,
            participant_decided_at = now() - interval '8 days' where id = $1`,
    [organizationId, decidedBy],
  );
}
