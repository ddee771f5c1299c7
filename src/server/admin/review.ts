/**
 * What staff do, shared by the admin API, the staff console and the operator CLI, so the three
 * cannot drift: decide a registration (KYC), admit an organisation as a participant, re-send a
 * verification link, load a statement, ask an applicant for changes. Each writes its audit row in the same transaction as its
 * effect. `actorUserId` is null for an operator command (the audit row then says `via: cli`).
 */
import crypto from 'node:crypto';
import type pg from 'pg';
import type { RegistrationStatus } from '../../shared/api/statuses';
import type { Statement } from '../../shared/api/statement';
import type { FormCatalog } from '../../shared/forms/model/compileNode';
import { questionAt } from '../../shared/forms/walk/changeScope';
import type { ChangeRequest } from '../../shared/api/registration';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import { recordStatusChange, type StatusActor } from '../db/registrationVersions';
import {
  findApplication,
  holdStoredFile,
  insertApplication,
  deleteApplicationFiles,
  setApplicationStatus,
  updateApplicationAnswers,
  closeApplicationReopenedBy,
} from '../db/applications';
import {
  decideOpenRegistration,
  findRegistrationAnswers,
  findRegistrationOfUser,
  findRegistrationStatus,
  listRegistrationDocuments,
  setChangeRequest,
  type RegistrationApplicant,
  type StoredChangeRequest,
} from '../db/registrations';
import { isPlainObject } from '../../shared/forms/model/schemaTypes';
import { toPointer } from '../../shared/forms/model/pointer';
import { sealApplicationAnswers } from '../fieldEncryption/applicationSealing';
import type { FieldKeyRing } from '../fieldEncryption/keyRing';
import { openRegistrationAnswers } from '../fieldEncryption/registrationSealing';
import { saveStatement, type StoredStatement } from '../db/statements';
import { issueAuthToken } from '../db/tokens';
import { withTransaction } from '../db/transaction';
import { findUserRowById, markDetailsApproved } from '../db/users';
import { lockOrganizationForDecision, setParticipantDecision } from '../db/adminQueries';
import { badRequest, ClientError, notFound } from '../errors';
import type { Mailer } from '../mail/mailer';
import {
  changesRequestedMessage,
  links,
  registrationApprovedMessage,
  registrationRejectedMessage,
  verifyEmailMessage,
} from '../mail/templates';
import { validateStatement } from '../statements/validateStatement';
import { refuseOwnOrganization } from './ownOrganization';

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

/** What the review steps need besides the database: the applicant is told by email. */
export interface ReviewDeps {
  pool: pg.Pool;
  mailer: Mailer;
  publicUrl: string;
  /** Told when an email could not be sent; the decision stands (it is already stored). */
  onMailError?: (error: unknown) => void;
  /** The forms and field keys: requested changes' pointers are judged on the opened answers. */
  forms: FormCatalog;
  fieldKeys: FieldKeyRing;
}

/** Statuses awaiting a reviewer: submitted, or submitted again after requested changes. */
export const AWAITING_REVIEW: readonly RegistrationStatus[] = ['submitted', 'resubmitted'];
/**
 * Statuses staff may decide from (approve, reject, ask for changes): awaiting review only. Each
 * submitted version takes one decision (issue 39 §5): a request for changes is that version's
 * decision, and the next is made on the version the applicant sends back. Each decision is one
 * conditional update of the registration's row in its transaction, so of two decisions sent
 * together the second waits for the first's commit, finds the status moved on and answers 409:
 * an approval could otherwise land on a registration waiting for changes, its application left
 * open to saves.
 */
export const OPEN_FOR_DECISION: readonly RegistrationStatus[] = [...AWAITING_REVIEW];
/**
 * Statuses staff may reject from: awaiting review, or waiting for changes the applicant may never
 * send (an abandoned application is closed by a rejection, with its reason). The rejection closes
 * the application the request reopened in the same transaction, so it takes no more saves.
 */
export const REJECTABLE: readonly RegistrationStatus[] = [...AWAITING_REVIEW, 'changes_requested'];

/** How the applicant's timeline names who acted: staff, or an operator's command. */
const actorKind = (actor: Actor): StatusActor => (actor.via === 'cli' ? 'operator' : 'staff');

/** Updates an open registration and answers its applicant; 404 unknown, 409 already decided. */
async function updateOpenRegistration(
  db: pg.PoolClient,
  registrationId: string,
  from: readonly string[],
  set: { status: RegistrationStatus; reviewedBy: string | null; reason: string | null },
): Promise<RegistrationApplicant> {
  const row = await decideOpenRegistration(db, registrationId, from, set);
  if (row) return row;
  const status = await findRegistrationStatus(db, registrationId);
  if (!status) throw notFound('No such registration.');
  throw new ClientError(409, alreadyMessage(status));
}

function alreadyMessage(status: RegistrationStatus): string {
  if (status === 'changes_requested') {
    return 'Changes were already requested; this registration waits for the applicant.';
  }
  if (status === 'resubmitted') return 'This registration was already resubmitted.';
  return `This registration was already ${status}.`;
}

/** Sends an applicant's email after the change is stored; a failure does not undo the change. */
async function tellApplicant(deps: ReviewDeps, message: Parameters<Mailer['send']>[0]) {
  try {
    await deps.mailer.send(message);
  } catch (error) {
    deps.onMailError?.(error);
  }
}

/**
 * Approves or rejects a registration awaiting review; rejects (never approves) one waiting for
 * requested changes, closing the application the request reopened.
 * Approval flips the registrant's `details.approved`, which turns their home banner from "under
 * review" to "approved"; a rejection keeps the reason, which the applicant's home page shows.
 * Either way the applicant is emailed. 404 for an unknown registration, 409 when already decided.
 */
export async function decideRegistration(
  deps: ReviewDeps,
  decision: { registrationId: string; approved: boolean; reason?: string | undefined },
  actor: Actor,
): Promise<{ status: RegistrationStatus; userId: string }> {
  const reason = checkReason(decision.approved, decision.reason);
  const status: RegistrationStatus = decision.approved ? 'approved' : 'rejected';
  const applicant = await withTransaction(deps.pool, async (db) => {
    await refuseOwnOrganization(
      db,
      'registration',
      { registrationId: decision.registrationId },
      actor.userId,
    );
    const from = decision.approved ? OPEN_FOR_DECISION : REJECTABLE;
    const row = await updateOpenRegistration(db, decision.registrationId, from, {
      status,
      reviewedBy: actor.userId,
      reason,
    });
    if (!decision.approved) await closeApplicationReopenedBy(db, decision.registrationId);
    await recordStatusChange(db, {
      registrationId: decision.registrationId,
      status,
      changedBy: actor.userId,
      actor: actorKind(actor),
    });
    if (decision.approved) await markDetailsApproved(db, row.user_id);
    await recordAuditEvent(db, {
      action: decision.approved ? 'registration.approved' : 'registration.rejected',
      actorUserId: actor.userId,
      subjectUserId: row.user_id,
      registrationId: decision.registrationId,
      detail: { via: actor.via },
    });
    return row;
  });
  const home = links.home(deps.publicUrl);
  await tellApplicant(
    deps,
    decision.approved
      ? registrationApprovedMessage(applicant.email, applicant.first_name, home)
      : registrationRejectedMessage(applicant.email, applicant.first_name, reason ?? ''),
  );
  return { status, userId: applicant.user_id };
}

/** One question staff ask the applicant to change, by JSON pointer into the answers. */
interface RequestedField {
  path: string;
  note: string;
}

const MAX_FIELDS = 200;

/**
 * The requested fields checked against the registration's form and stored answers: each pointer
 * must name a question of that form (inside an affiliated person too), each once, each note
 * within the limit. 400 naming the pointer otherwise.
 */
async function checkedFields(
  deps: ReviewDeps,
  db: pg.PoolClient,
  registrationId: string,
  fields: RequestedField[],
): Promise<ChangeRequest['fields']> {
  if (fields.length === 0) return [];
  if (fields.length > MAX_FIELDS)
    throw badRequest(`At most ${MAX_FIELDS} changes can be requested.`);
  const stored = await findRegistrationAnswers(db, registrationId);
  if (!stored) throw notFound('No such registration.');
  const form = deps.forms.get(stored.formId);
  if (!form) throw new Error(`form ${stored.formId} is not served`);
  const answers = openRegistrationAnswers(deps.fieldKeys, registrationId, stored.answers);
  const seen = new Set<string>();
  return fields.map((field) => {
    const path = field.path.trim();
    const note = field.note.trim();
    const question = questionAt(form, answers, path);
    if (!question) {
      throw badRequest(`${JSON.stringify(path)} names no question of this registration's form.`);
    }
    if (seen.has(path)) throw badRequest(`${JSON.stringify(path)} is asked for twice.`);
    seen.add(path);
    if (note.length > REASON_MAX) {
      throw badRequest(`The note on ${question.prompt} is too long (${REASON_MAX} max).`);
    }
    return { path, prompt: question.prompt, note };
  });
}

/**
 * The registration handed back to its applicant as their application (the form's working copy):
 * its answers (sealed for the application), its file answers' documents held by pointer (the
 * same stored bytes), status `changes_requested` with the request, so the form resumes from it.
 */
async function openApplicationForChanges(
  deps: ReviewDeps,
  db: pg.PoolClient,
  registrationId: string,
  request: StoredChangeRequest,
): Promise<void> {
  const registration = (await findRegistrationAnswers(db, registrationId))!;
  const form = deps.forms.get(registration.formId);
  if (!form) throw new Error(`form ${registration.formId} is not served`);
  const answers = openRegistrationAnswers(deps.fieldKeys, registrationId, registration.answers);
  let application = await findApplication(db, registration.userId, form.id, { forUpdate: true });
  if (!application) {
    const id = crypto.randomUUID();
    application = await insertApplication(db, {
      id,
      userId: registration.userId,
      formId: form.id,
      schemaHash: registration.schemaHash,
      answers: sealApplicationAnswers(deps.fieldKeys, form, id, answers),
      step: null,
    });
    if (!application) throw new Error('application insert raced despite the registration lock');
  } else {
    await updateApplicationAnswers(db, application.id, {
      answers: sealApplicationAnswers(deps.fieldKeys, form, application.id, answers),
      schemaHash: registration.schemaHash,
      step: null,
    });
  }
  // The files as submitted, nothing left over from before the submission.
  await deleteApplicationFiles(db, application.id);
  for (const [part, document] of await listRegistrationDocuments(db, registrationId)) {
    if (isPlainObject(answers[part])) {
      await holdStoredFile(db, application.id, toPointer([part]), document);
    }
  }
  await setApplicationStatus(db, application.id, 'changes_requested', {
    registrationId,
    note: request.note ?? '',
    fields: request.fields,
  });
}

/**
 * Asks the applicant of a registration awaiting review (submitted or resubmitted) for changes:
 * the questions to change (`fields`, JSON pointers into the answers, each with a note) and a
 * note on the whole application; at least one of them. The request is stored on the registration
 * (its home page lists it, its form reopens with those questions editable), the status history
 * records it, and the applicant is emailed that changes were requested (never what: the notes may
 * quote answers). 400 for a pointer naming no question, 404 unknown, 409 not awaiting review.
 */
export async function requestChanges(
  deps: ReviewDeps,
  request: {
    registrationId: string;
    note?: string | undefined;
    fields?: RequestedField[] | undefined;
  },
  actor: Actor,
): Promise<{ status: RegistrationStatus; userId: string }> {
  const note = request.note?.trim() ?? '';
  const fields = request.fields ?? [];
  if (!note && fields.length === 0)
    throw badRequest('Please say what the applicant should change.');
  if (note.length > REASON_MAX) throw badRequest(`The note is too long (${REASON_MAX} max).`);
  const applicant = await withTransaction(deps.pool, async (db) => {
    await refuseOwnOrganization(
      db,
      'registration',
      { registrationId: request.registrationId },
      actor.userId,
    );
    const requested = await checkedFields(deps, db, request.registrationId, fields);
    const row = await updateOpenRegistration(db, request.registrationId, AWAITING_REVIEW, {
      status: 'changes_requested',
      reviewedBy: actor.userId,
      reason: note || null,
    });
    const changeRequest: StoredChangeRequest = {
      note: note || null,
      fields: requested.map(({ path, note: fieldNote }) => ({ path, note: fieldNote })),
    };
    await setChangeRequest(db, request.registrationId, changeRequest);
    await openApplicationForChanges(deps, db, request.registrationId, changeRequest);
    await recordStatusChange(db, {
      registrationId: request.registrationId,
      status: 'changes_requested',
      changedBy: actor.userId,
      actor: actorKind(actor),
    });
    await recordAuditEvent(db, {
      action: 'registration.changes-requested',
      actorUserId: actor.userId,
      subjectUserId: row.user_id,
      registrationId: request.registrationId,
      detail: {
        via: actor.via,
        ...(requested.length > 0 ? { fields: requested.map((field) => field.path) } : {}),
      },
    });
    return { ...row, prompts: requested.map((field) => field.prompt) };
  });
  await tellApplicant(
    deps,
    changesRequestedMessage(
      applicant.email,
      applicant.first_name,
      links.home(deps.publicUrl),
      applicant.prompts,
    ),
  );
  return { status: 'changes_requested', userId: applicant.user_id };
}

/**
 * The operator's `approve <email>`: decides the user's open registration, or, for a user with
 * details but no registration (seeded, or added by an organisation), marks the details approved.
 */
export async function approveUser(
  deps: ReviewDeps,
  userId: string,
  actor: Actor,
): Promise<{ registrationId: string | null }> {
  const { pool } = deps;
  const row = await findRegistrationOfUser(pool, userId);
  if (row && OPEN_FOR_DECISION.includes(row.status)) {
    await decideRegistration(deps, { registrationId: row.id, approved: true }, actor);
    return { registrationId: row.id };
  }
  // Waiting for the applicant's changes: that version's decision is made (OPEN_FOR_DECISION).
  if (row?.status === 'changes_requested') {
    throw new ClientError(409, alreadyMessage('changes_requested'));
  }
  const user = await findUserRowById(pool, userId);
  if (!user?.details) throw new ClientError(409, 'This user has not registered yet.');
  if (user.details.approved) throw new ClientError(409, 'This user is already approved.');
  await withTransaction(pool, async (db) => {
    await markDetailsApproved(db, userId);
    await recordAuditEvent(db, {
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
): Promise<{ status: RegistrationStatus }> {
  const reason = checkReason(decision.approved, decision.reason);
  const status: RegistrationStatus = decision.approved ? 'approved' : 'rejected';
  return withTransaction(pool, async (db) => {
    await refuseOwnOrganization(
      db,
      'admission',
      { organizationId: decision.organizationId },
      actor.userId,
    );
    const row = await lockOrganizationForDecision(db, decision.organizationId);
    if (!row) throw notFound('No such organization.');
    if (decision.approved && row.registrationStatus && row.registrationStatus !== 'approved') {
      throw new ClientError(409, 'Approve the KYC review of this organization first.');
    }
    await setParticipantDecision(db, decision.organizationId, {
      status,
      decidedBy: actor.userId,
      reason,
    });
    await recordAuditEvent(db, {
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
  await recordAuditEvent(deps.pool, {
    action: 'admin.verification-email',
    actorUserId: actor.userId,
    subjectUserId: user.id,
    detail: { via: actor.via },
  });
}

/** Today's date in UTC, `yyyy-MM-dd`. */
const todayUtc = (): string => new Date().toISOString().slice(0, 10);

/**
 * Validates and stores a statement for an organisation. Refused (422, every problem listed) when
 * the JSON is not a Statement.
 */
export async function loadStatement(
  pool: pg.Pool,
  entry: { organizationId: string; statement: unknown; asOf?: string | undefined },
  actor: Actor,
): Promise<StoredStatement> {
  // Refused before the statement is looked at: its own staff learn nothing from validation.
  await refuseOwnOrganization(
    pool,
    'statement',
    { organizationId: entry.organizationId },
    actor.userId,
  );
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
    await recordAuditEvent(db, {
      action: 'statement.loaded',
      actorUserId: actor.userId,
      detail: { organizationId: entry.organizationId, asOf, via: actor.via },
    });
    return stored;
  });
}
