/**
 * What staff do, shared by the admin API, the staff console and the operator CLI, so the three
 * cannot drift: decide a registration (KYC), admit an organisation as a participant, re-send a
 * verification link, load a statement. Each writes its audit row in the same transaction as its
 * effect. `actorUserId` is null for an operator command (the audit row then says `via: cli`).
 */
import type pg from 'pg';
import type { ReviewStatus } from '../../shared/api/admin';
import type { Statement } from '../../shared/api/statement';
import { audit } from '../db/audit';
import { saveStatement, type StoredStatement } from '../db/statements';
import { issueAuthToken } from '../db/tokens';
import { withTransaction } from '../db/transaction';
import { findUserRowById } from '../db/users';
import { badRequest, ClientError, notFound } from '../errors';
import type { Mailer } from '../mail/mailer';
import { links, verifyEmailMessage } from '../mail/templates';
import { validateStatement } from '../statements/validateStatement';

export interface Actor {
  /** The staff member, or null for the operator CLI. */
  userId: string | null;
  via: 'api' | 'console' | 'cli';
}

const REASON_MAX = 2000;

function checkReason(approved: boolean, reason: string | undefined): string | null {
  const text = reason?.trim() ?? '';
  if (!approved && !text) throw badRequest('Please give a reason for the rejection.');
  if (text.length > REASON_MAX) throw badRequest(`The reason is too long (${REASON_MAX} max).`);
  return text || null;
}

/**
 * Approves or rejects a pending registration. Approval flips the registrant's
 * `details.approved`, which turns their home banner from "under review" to "approved".
 * 404 for an unknown registration, 409 when it was already decided.
 */
export async function decideRegistration(
  pool: pg.Pool,
  decision: { registrationId: string; approved: boolean; reason?: string | undefined },
  actor: Actor,
): Promise<{ status: ReviewStatus; userId: string }> {
  const reason = checkReason(decision.approved, decision.reason);
  const status: ReviewStatus = decision.approved ? 'approved' : 'rejected';
  return withTransaction(pool, async (db) => {
    const updated = await db.query<{ user_id: string }>(
      `update registrations
          set status = $2, reviewed_by = $3, reviewed_at = now(), decision_reason = $4
        where id = $1 and status = 'pending'
        returning user_id`,
      [decision.registrationId, status, actor.userId, reason],
    );
    const row = updated.rows[0];
    if (!row) {
      const existing = await db.query<{ status: string }>(
        'select status from registrations where id = $1',
        [decision.registrationId],
      );
      if (!existing.rows[0]) throw notFound('No such registration.');
      throw new ClientError(409, `This registration was already ${existing.rows[0].status}.`);
    }
    if (decision.approved) {
      await db.query(
        `update users set details = jsonb_set(details, '{approved}', 'true'::jsonb)
          where id = $1 and details is not null`,
        [row.user_id],
      );
    }
    await audit(db, {
      action: decision.approved ? 'registration.approved' : 'registration.rejected',
      actorUserId: actor.userId,
      subjectUserId: row.user_id,
      detail: { registrationId: decision.registrationId, via: actor.via },
    });
    return { status, userId: row.user_id };
  });
}

/**
 * The operator's `approve <email>`: decides the user's pending registration, or, for a user with
 * details but no registration (seeded, or added by an organisation), marks the details approved.
 */
export async function approveUser(
  pool: pg.Pool,
  userId: string,
  actor: Actor,
): Promise<{ registrationId: string | null }> {
  const registration = await pool.query<{ id: string; status: string }>(
    'select id, status from registrations where user_id = $1',
    [userId],
  );
  const row = registration.rows[0];
  if (row?.status === 'pending') {
    await decideRegistration(pool, { registrationId: row.id, approved: true }, actor);
    return { registrationId: row.id };
  }
  const user = await findUserRowById(pool, userId);
  if (!user?.details) throw new ClientError(409, 'This user has not registered yet.');
  if (user.details.approved) throw new ClientError(409, 'This user is already approved.');
  await withTransaction(pool, async (db) => {
    await db.query(
      `update users set details = jsonb_set(details, '{approved}', 'true'::jsonb) where id = $1`,
      [userId],
    );
    await audit(db, {
      action: 'user.approved',
      actorUserId: actor.userId,
      subjectUserId: userId,
      detail: { via: actor.via },
    });
  });
  return { registrationId: row?.id ?? null };
}

/**
 * Admits or refuses an organisation as a clearing participant. Its registration must have passed
 * KYC first (409 otherwise); organisations without a registration (seeded) may be admitted.
 */
export async function decideParticipant(
  pool: pg.Pool,
  decision: { organizationId: string; approved: boolean; reason?: string | undefined },
  actor: Actor,
): Promise<{ status: ReviewStatus }> {
  const reason = checkReason(decision.approved, decision.reason);
  const status: ReviewStatus = decision.approved ? 'approved' : 'rejected';
  return withTransaction(pool, async (db) => {
    const organization = await db.query<{ id: string; registration_status: string | null }>(
      `select o.id, (select r.status from registrations r where r.organization_id = o.id
                      order by r.submitted_at desc limit 1) as registration_status
         from organizations o where o.id = $1 for update of o`,
      [decision.organizationId],
    );
    const row = organization.rows[0];
    if (!row) throw notFound('No such organization.');
    if (decision.approved && row.registration_status && row.registration_status !== 'approved') {
      throw new ClientError(409, 'Approve the KYC review of this organization first.');
    }
    await db.query(
      `update organizations set participant_status = $2, participant_decided_by = $3,
              participant_decided_at = now(), participant_reason = $4
        where id = $1`,
      [decision.organizationId, status, actor.userId, reason],
    );
    await audit(db, {
      action: decision.approved
        ? 'organization.participant-approved'
        : 'organization.participant-rejected',
      actorUserId: actor.userId,
      detail: { organizationId: decision.organizationId, via: actor.via },
    });
    return { status };
  });
}

/**
 * Mails a new verification link (retiring earlier ones) to a user who has not verified yet.
 * 404 for an unknown user, 409 when already verified.
 */
export async function resendVerificationEmail(
  deps: { pool: pg.Pool; mailer: Mailer; publicUrl: string },
  userId: string,
  actor: Actor,
): Promise<void> {
  const user = await findUserRowById(deps.pool, userId);
  if (!user) throw notFound('No such user.');
  if (user.email_verified_at) throw new ClientError(409, 'This email is already verified.');
  const token = await issueAuthToken(deps.pool, 'verify-email', user.id);
  await deps.mailer.send(
    verifyEmailMessage(user.email, links.verifyEmail(deps.publicUrl, user.email, token)),
  );
  await audit(deps.pool, {
    action: 'admin.verification-email',
    actorUserId: actor.userId,
    subjectUserId: user.id,
    detail: { via: actor.via },
  });
}

/** Today's date in UTC, `yyyy-MM-dd`. */
export const todayUtc = (): string => new Date().toISOString().slice(0, 10);

/**
 * Validates and stores a statement for an organisation. Refused (422, every problem listed) when
 * the JSON is not a Statement.
 */
export async function loadStatement(
  pool: pg.Pool,
  entry: { organizationId: string; statement: unknown; asOf?: string | undefined },
  actor: Actor,
): Promise<StoredStatement> {
  const check = validateStatement(entry.statement);
  if (!check.valid) {
    throw new ClientError(
      422,
      `The statement is not valid: ${check.errors.join('; ')}`,
      Object.fromEntries(check.errors.map((message) => [message.split(':')[0]!, message])),
    );
  }
  const asOf = entry.asOf ?? todayUtc();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || Number.isNaN(Date.parse(`${asOf}T00:00:00Z`))) {
    throw badRequest('asOf must be a date such as 2026-05-14.');
  }
  return withTransaction(pool, async (db) => {
    const stored = await saveStatement(db, {
      organizationId: entry.organizationId,
      statement: entry.statement as Statement,
      asOf,
      loadedBy: actor.userId,
    });
    await audit(db, {
      action: 'statement.loaded',
      actorUserId: actor.userId,
      detail: { organizationId: entry.organizationId, asOf, via: actor.via },
    });
    return stored;
  });
}
