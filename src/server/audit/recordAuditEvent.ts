import crypto from 'node:crypto';
import { withTransaction, type Queryable } from '../db/transaction';
import type { FieldKey, FieldKeyRing } from '../fieldEncryption/keyRing';
import { insertAuditRow, lockAuditHead } from '../db/auditLog';
import { credentialAuditDetail } from './credentialContext';
import { auditCanonical, auditChainKeysOf, keyedLinkHash } from './auditChainKeys';

/** The events the audit trail records. */
export type AuditAction =
  | 'signup'
  | 'signin'
  | 'signin.failed'
  | 'signout'
  | 'email.verified'
  | 'password.reset-requested'
  | 'password.reset'
  | '2fa.enrolment-started'
  | '2fa.enabled'
  | '2fa.disabled'
  // A new set of recovery codes (the old set void), and one used in place of a second factor.
  | '2fa.recovery-codes-issued'
  | '2fa.recovery-code-used'
  // Too many failed second-factor attempts in a row: the second factor locked for a while.
  | '2fa.locked'
  // Too many wrong passwords in a row: sign-in from new browsers locked for a while.
  | 'signin.locked'
  | 'passkey.added'
  | 'passkey.removed'
  | 'password.changed'
  | 'sessions.ended'
  | 'reauth.failed'
  | 'email.change-requested'
  | 'email.changed'
  // Outstanding emailed links voided by a recovery or a change of how the account signs in.
  | 'links.cancelled'
  | 'settings.add_kyc'
  | 'settings.modify_kyc'
  | 'settings.invite_user'
  | 'settings.set_roles'
  | 'settings.mark_tutorial_complete'
  // An organisation's API credentials (issue 40 §4).
  | 'api-credential.created'
  | 'api-credential.revoked'
  | 'invite.accepted'
  | 'esign.consented'
  | 'registration.user'
  // The applicant's working copy on the server (issue 17).
  | 'application.created'
  | 'application.saved'
  | 'application.file-uploaded'
  | 'application.file-removed'
  | 'application.change-refused'
  // An upload refused for what it holds (active content, not what it claims to be).
  | 'upload.refused'
  | 'registration.submitted'
  | 'registration.resubmitted'
  | 'registration.changes-made'
  // Staff review (admin API, staff console, operator CLI).
  | 'admin.api'
  | 'admin.verification-email'
  | 'registration.viewed'
  | 'registration.revealed'
  | 'registration.document-downloaded'
  | 'registration.approved'
  | 'registration.rejected'
  | 'registration.changes-requested'
  | 'user.approved'
  | 'organization.participant-approved'
  | 'organization.participant-rejected'
  | 'statement.loaded'
  // Webhooks (issue 40 §5): an Administrator's endpoints and resends.
  | 'webhook.endpoint-created'
  | 'webhook.endpoint-changed'
  | 'webhook.endpoint-deleted'
  // A new signing secret (the old one signing too for the overlap chosen).
  | 'webhook.endpoint-secret-rolled'
  | 'webhook.delivery-resent'
  | 'staff.created'
  // Operator commands that read the trail or look a person up (issue 27).
  | 'audit.verified'
  | 'audit.checkpoint'
  | 'audit.looked-up';

/** What one audit row says. */
interface AuditEvent {
  action: AuditAction;
  /** Who acted: a user id, or null for the operator CLI and for a sign-in by nobody known. */
  actorUserId: string | null;
  /** The user acted upon, when not the actor (an id, never an email). */
  subjectUserId?: string | null;
  /** The registration the event concerns: the staff console lists its events by this. */
  registrationId?: string | null;
  /** Ids, counts, flags and fixed words only: never an email, a name, a token, a code or an IP. */
  detail?: Record<string, string | number | boolean | string[]>;
}

/**
 * Appends a row to the audit trail, a hash chain in PostgreSQL (migrations 085, 112): the row
 * takes the next number after the chain's head, links to the head's hash, and its own hash is an
 * HMAC under the audit chain's key (auditChainKeys.ts), computed here so the database never holds
 * the key; the database refuses any later change. Pass the client of the event's transaction
 * where there is one, so the row commits (or rolls back) with what it records; given the pool,
 * the append runs in a transaction of its own. Appends from every instance are serialised on the
 * chain's head row, locked until the commit: call it last in a transaction, since a transaction
 * that audited and then waited for another row lock could deadlock with one holding that row.
 */
export async function recordAuditEvent(db: Queryable, event: AuditEvent): Promise<void> {
  const { ring, pool } = auditChainKeysOf(db);
  if (pool) {
    await withTransaction(pool, (client) => appendKeyedRow(client, ring.current, event));
  } else {
    await appendKeyedRow(db, ring.current, event);
  }
}

async function appendKeyedRow(db: Queryable, key: FieldKey, event: AuditEvent): Promise<void> {
  // The head, locked; the row's values in the text forms PostgreSQL stores them as, so the text
  // hashed here is the one verifyAuditChain reads back.
  const {
    lastSeq,
    lastHash: prevHash,
    at,
    actor,
    registration,
    detail,
  } = await lockAuditHead(db, {
    actorUserId: event.actorUserId,
    registrationId: event.registrationId ?? null,
    // A request made with an API credential: the row names it (audit/credentialContext.ts).
    detail: storableDetail({ ...event.detail, ...credentialAuditDetail() }),
  });
  const seq = (BigInt(lastSeq) + 1n).toString();
  const parts = {
    seq,
    at,
    actorUserId: actor,
    action: event.action,
    subject: event.subjectUserId ?? null,
    registrationId: registration,
    detailText: detail,
  };
  await insertAuditRow(db, {
    ...parts,
    prevHash,
    hash: keyedLinkHash(key, prevHash, auditCanonical(parts)),
    chainKey: key.id,
  });
}

/**
 * `detail` as PostgreSQL's jsonb can hold it: a NUL (`\u0000`, which a request path can carry,
 * `%00`) is refused there ("unsupported Unicode escape sequence"), and with it the whole row. It is
 * written out as the six characters `\u0000`, so the row records what was asked.
 */
function storableDetail(
  detail: NonNullable<AuditEvent['detail']>,
): NonNullable<AuditEvent['detail']> {
  const escape = (text: string) => text.replaceAll('\0', '\\u0000');
  return Object.fromEntries(
    Object.entries(detail).map(([key, value]) => [
      escape(key),
      typeof value === 'string' ? escape(value) : Array.isArray(value) ? value.map(escape) : value,
    ]),
  );
}

/**
 * How a failed sign-in names an email that has no account: HMAC-SHA-256 of the trimmed,
 * lower-cased address under a key derived (HKDF, for this use only) from the current field
 * encryption key, with that key's id beside it. A plain SHA-256 could be reversed by hashing
 * guessed addresses; the keyed one groups the attempts on one address, and only someone holding
 * the keys (`npm run admin -- audit-lookup <email>`) can tell which address it is.
 */
export function emailDigest(
  ring: FieldKeyRing,
  email: string,
): { emailDigest: string; digestKey: string } {
  return { emailDigest: keyedEmailDigest(ring.current, email), digestKey: ring.current.id };
}

/**
 * Every digest a failed sign-in row may hold for an email: under each key of the ring (rows
 * written before a rotation keep their key's digest), and the unkeyed SHA-256 that rows written
 * before keyed digests hold.
 */
export function emailDigestsToLookUp(ring: FieldKeyRing, email: string): string[] {
  const unkeyed = crypto.createHash('sha256').update(normalised(email)).digest('hex');
  return [...ring.keys.map((key) => keyedEmailDigest(key, email)), unkeyed];
}

function keyedEmailDigest(key: FieldKey, email: string): string {
  const digestKey = Buffer.from(
    crypto.hkdfSync('sha256', key.secret, Buffer.alloc(0), 'audit-email-digest', 32),
  );
  return crypto.createHmac('sha256', digestKey).update(normalised(email)).digest('hex');
}

function normalised(email: string): string {
  return email.trim().toLowerCase();
}
