import type { ApplicationReview, Role, User, UserDetails } from '../../shared/api/auth';
import type { RegistrationStatus } from '../../shared/api/statuses';
import { accountSubject } from './passwordFailures';
import type { Queryable } from './transaction';

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
  /** The user's registration, if any (one per user). */
  registration_status: RegistrationStatus | null;
  registration_reason: string | null;
}

const SELECT_USER = `
  select u.*, o.name as org_name, o.clearing_org_id,
         r.status as registration_status, r.decision_reason as registration_reason
    from users u left join organizations o on o.id = u.organization_id
    left join registrations r on r.user_id = u.id`;

/** The applicant's view of their registration's review; the reason only where they need it. */
function reviewOf(row: UserRow): ApplicationReview | null {
  if (!row.registration_status) return null;
  const status = row.registration_status;
  const withReason = status === 'rejected' || status === 'changes_requested';
  return { status, reason: withReason ? row.registration_reason : null };
}

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
    review: reviewOf(row),
  };
}

export async function findUserRowById(db: Queryable, id: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(`${SELECT_USER} where u.id = $1`, [id]);
  return result.rows[0] ?? null;
}

export async function findUserRowByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(`${SELECT_USER} where lower(u.email) = lower($1)`, [
    email.trim(),
  ]);
  return result.rows[0] ?? null;
}

/** Creates a user who has not yet verified an email or set a password; returns the id. */
export async function createUnverifiedUser(
  db: Queryable,
  email: string,
  organizationId: string | null = null,
): Promise<string> {
  const result = await db.query<{ id: string }>(
    'insert into users (email, organization_id) values ($1, $2) returning id',
    [email.trim(), organizationId],
  );
  return result.rows[0]!.id;
}

/**
 * Sets a new password hash; `verify` also marks the email verified (first password). A new
 * password starts the second factor's failure count again: it ends the lock at NIST's cap
 * (auth/secondFactor.ts), which only someone holding the old password could have reached. It
 * clears the account's count of wrong passwords too (auth/passwordFailures.ts): a reset is how
 * the owner ends a lock someone else's guesses brought.
 */
export async function setPasswordHash(
  db: Queryable,
  userId: string,
  passwordHash: string,
  options: { verify?: boolean } = {},
): Promise<void> {
  await db.query(
    `with cleared as (delete from password_failures where subject = $4)
     update users set password_hash = $2,
            second_factor_failures = 0, second_factor_blocked_until = null,
            email_verified_at = case when $3 then coalesce(email_verified_at, now()) else email_verified_at end
      where id = $1`,
    [userId, passwordHash, options.verify === true, accountSubject(userId)],
  );
}

export async function setUserDetails(
  db: Queryable,
  userId: string,
  details: UserDetails,
): Promise<void> {
  await db.query('update users set details = $2 where id = $1', [userId, details]);
}

export async function setUserRoles(db: Queryable, userId: string, roles: Role[]): Promise<void> {
  await db.query('update users set roles = $2 where id = $1', [userId, roles]);
}

export async function setUserOrganization(
  db: Queryable,
  userId: string,
  organizationId: string,
): Promise<void> {
  await db.query('update users set organization_id = $2 where id = $1', [userId, organizationId]);
}

export async function markTutorialComplete(db: Queryable, userId: string): Promise<void> {
  await db.query('update users set tutorial_complete = true where id = $1', [userId]);
}

/** Stores a pending TOTP secret (2FA stays off until a code confirms it). */
export async function setPendingTotpSecret(
  db: Queryable,
  userId: string,
  secret: string,
): Promise<void> {
  await db.query(
    `update users set totp_secret = $2, totp_enabled = false, totp_last_step = null
      where id = $1 and not totp_enabled`,
    [userId, secret],
  );
}

/** Turns the authenticator app off and forgets its secret. */
export async function clearTotp(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `update users set totp_secret = null, totp_enabled = false, totp_last_step = null
      where id = $1`,
    [userId],
  );
}

/**
 * Records `step` as the user's last accepted TOTP step, and turns 2FA on when `enable`. Answers
 * false when that step (or a later one) was already used: RFC 6238 allows each code once, and
 * the check sits in the update so two concurrent requests cannot both pass.
 */
export async function acceptTotpStep(
  db: Queryable,
  userId: string,
  step: number,
  options: { enable?: boolean } = {},
): Promise<boolean> {
  const result = await db.query(
    `update users set totp_last_step = $2, totp_enabled = totp_enabled or $3
      where id = $1 and totp_secret is not null
        and (totp_last_step is null or totp_last_step < $2)`,
    [userId, step, options.enable === true],
  );
  return result.rowCount === 1;
}

/**
 * The members of an organisation, for its Administrators' settings page, followed by the people
 * with a live invitation who have not accepted it yet (no roles until they do).
 */
export async function listOrganizationMembers(
  db: Queryable,
  organizationId: string,
): Promise<{ userId: string; email: string; roles: Role[] }[]> {
  const result = await db.query<{ id: string; email: string; roles: Role[] }>(
    `select id, email, roles from (
       select u.id, u.email, u.roles, 0 as pending, u.created_at
         from users u where u.organization_id = $1
       union
       select u.id, u.email, '{}'::text[], 1, t.created_at
         from auth_tokens t join users u on u.id = t.user_id
        where t.purpose = 'invite' and t.used_at is null and t.expires_at > now()
          and t.data->>'organizationId' = $1::text
          and u.organization_id is null
     ) m order by pending, created_at, email`,
    [organizationId],
  );
  return result.rows.map((row) => ({ userId: row.id, email: row.email, roles: row.roles }));
}

/** The last accepted TOTP step as a number (PostgreSQL bigint arrives as a string). */
export function lastTotpStep(row: UserRow): number | null {
  return row.totp_last_step === null ? null : Number(row.totp_last_step);
}

/** Ends every session of a user (after a password reset), inside the caller's transaction. */
export async function endAllSessions(db: Queryable, userId: string): Promise<void> {
  await db.query('delete from sessions where user_id = $1', [userId]);
}

/**
 * Locks the user's row until the transaction ends: one user's submissions are serialised on it
 * (a double click must not create two organisations).
 */
export async function lockUser(db: Queryable, userId: string): Promise<void> {
  await db.query('select 1 from users where id = $1 for update', [userId]);
}

/**
 * The registrant's details from their first submission, the new organisation, and its
 * Administrator role (spec §1: the person who registers holds it).
 */
export async function setRegistrantDetails(
  db: Queryable,
  userId: string,
  details: UserDetails,
  organizationId: string,
): Promise<void> {
  await db.query(
    `update users set details = $2, organization_id = $3, roles = '{Administrator}'
      where id = $1`,
    [userId, details, organizationId],
  );
}

/** Marks a registrant's details approved (their home banner turns to "approved"). */
export async function markDetailsApproved(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `update users set details = jsonb_set(details, '{approved}', 'true'::jsonb)
      where id = $1 and details is not null`,
    [userId],
  );
}

/**
 * The account's second-factor failures and wait while it waits or has `capAt` failures or more;
 * null when its second factor is open.
 */
export async function findSecondFactorBlock(
  db: Queryable,
  userId: string,
  capAt: number,
): Promise<{ failures: number; blockedUntil: Date } | null> {
  const result = await db.query<{ failures: number; blocked_until: Date }>(
    `select second_factor_failures as failures, second_factor_blocked_until as blocked_until
       from users where id = $1
        and (second_factor_blocked_until > now() or second_factor_failures >= $2)`,
    [userId, capAt],
  );
  const row = result.rows[0];
  return row ? { failures: row.failures, blockedUntil: row.blocked_until } : null;
}

/**
 * Counts one more second-factor failure with the wait it brings (`waitSeconds[n - 1]` after the
 * n-th, the last for every later one), unless a wait runs or `capAt` is reached: the count then,
 * or null when refused. Atomic, so attempts sent together each take their own place.
 *
 * A failure that brings no wait leaves no end of a wait (null), not `now()`: `now()` is each
 * statement's own start, so an attempt that started a moment before a concurrent one but waited
 * for its row lock would find that `now()` later than its own and be refused with no wait running.
 */
export async function claimSecondFactorAttempt(
  db: Queryable,
  userId: string,
  waitSeconds: readonly number[],
  capAt: number,
): Promise<number | null> {
  const claimed = await db.query<{ failures: number }>(
    `update users set
       second_factor_failures = second_factor_failures + 1,
       second_factor_blocked_until = now() + nullif(($2::int[])[least(second_factor_failures + 1,
         cardinality($2::int[]))], 0) * interval '1 second'
     where id = $1 and (second_factor_blocked_until is null or second_factor_blocked_until <= now())
       and second_factor_failures < $3
     returning second_factor_failures as failures`,
    [userId, waitSeconds, capAt],
  );
  return claimed.rows[0]?.failures ?? null;
}

/** Clears the account's second-factor failures (a second factor passed). */
export async function resetSecondFactorFailures(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `update users set second_factor_failures = 0, second_factor_blocked_until = null
      where id = $1`,
    [userId],
  );
}

export async function setUserEmail(db: Queryable, userId: string, email: string): Promise<void> {
  await db.query('update users set email = $2 where id = $1', [userId, email]);
}

/**
 * The organisation's members and their roles, locked until the transaction ends (two
 * Administrators cannot demote each other at once).
 */
export async function lockOrganizationMembers(
  db: Queryable,
  organizationId: string,
): Promise<{ id: string; roles: Role[] }[]> {
  const members = await db.query<{ id: string; roles: Role[] }>(
    'select id, roles from users where organization_id = $1 for update',
    [organizationId],
  );
  return members.rows;
}

/** A staff user; verified when given a password, otherwise invited to set one. Its id. */
export async function insertStaffUser(
  db: Queryable,
  email: string,
  passwordHash: string | null,
): Promise<string> {
  const inserted = await db.query<{ id: string }>(
    `insert into users (email, password_hash, email_verified_at, is_staff)
     values ($1, $2, case when $2::text is null then null else now() end, true) returning id`,
    [email, passwordHash],
  );
  return inserted.rows[0]!.id;
}
