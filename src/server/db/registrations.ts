import type { Queryable } from './transaction';
import type { RegistrationStatus } from '../../shared/api/statuses';
import type { PersonColumnValues } from '../../shared/forms/model/personColumns';
import { putDocument, type StoredFile } from './documents';

interface NewRegistration {
  /** Chosen before the insert: sealed answers are bound to their registration's id. */
  id: string;
  userId: string;
  organizationId: string;
  formId: string;
  schemaHash: string;
  answers: unknown;
  payload: unknown;
  submissionHash: string;
  ip: string;
}

/**
 * Inserts a registration unless the user already has one; returns its id, or null when one
 * exists (the caller then compares submission hashes).
 */
export async function insertRegistration(
  db: Queryable,
  registration: NewRegistration,
): Promise<string | null> {
  const result = await db.query<{ id: string }>(
    `insert into registrations
       (id, user_id, organization_id, form_id, schema_hash, answers, payload, submission_hash, submitted_from_ip)
     values ($9, $1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (user_id) do nothing
     returning id`,
    [
      registration.userId,
      registration.organizationId,
      registration.formId,
      registration.schemaHash,
      JSON.stringify(registration.answers),
      JSON.stringify(registration.payload),
      registration.submissionHash,
      registration.ip,
      registration.id,
    ],
  );
  return result.rows[0]?.id ?? null;
}

/** A change request as `registrations.change_request` keeps it (prompts come from the form). */
export interface StoredChangeRequest {
  note: string | null;
  fields: { path: string; note: string }[];
}

/** A new organisation of `kind` named `name`, with the next clearing id; its id. */
export async function insertOrganization(
  db: Queryable,
  organization: { name: string; kind: string },
): Promise<string> {
  const result = await db.query<{ id: string }>(
    `insert into organizations (name, clearing_org_id, kind)
     values ($1, next_clearing_org_id(), $2)
     returning id`,
    [organization.name, organization.kind],
  );
  return result.rows[0]!.id;
}

/**
 * A registration's new answers from a resubmission (sealed), waiting for review again; the
 * change request answered is cleared.
 */
export async function updateResubmittedRegistration(
  db: Queryable,
  registration: {
    id: string;
    schemaHash: string;
    answers: unknown;
    payload: unknown;
    submissionHash: string;
  },
): Promise<void> {
  await db.query(
    `update registrations
        set answers = $2, payload = $3, schema_hash = $4, submission_hash = $5,
            status = 'resubmitted', change_request = null
      where id = $1`,
    [
      registration.id,
      JSON.stringify(registration.answers),
      JSON.stringify(registration.payload),
      registration.schemaHash,
      registration.submissionHash,
    ],
  );
}

/** The change request a registration waits on (null when it waits on none). */
export async function findChangeRequest(
  db: Queryable,
  registrationId: string,
): Promise<StoredChangeRequest | null> {
  const result = await db.query<{ change_request: StoredChangeRequest | null }>(
    `select change_request from registrations where id = $1 and status = 'changes_requested'`,
    [registrationId],
  );
  return result.rows[0]?.change_request ?? null;
}

/** A registration waiting for changes as a resubmission meets it: answers sealed, the request. */
export async function findRegistrationForChanges(
  db: Queryable,
  registrationId: string,
): Promise<{ answers: unknown; changeRequest: StoredChangeRequest | null } | null> {
  const result = await db.query<{ answers: unknown; change_request: StoredChangeRequest | null }>(
    'select answers, change_request from registrations where id = $1',
    [registrationId],
  );
  const row = result.rows[0];
  return row ? { answers: row.answers, changeRequest: row.change_request } : null;
}

/** The user's registration as its applicant reads where it stands (answers still sealed). */
export async function findOwnRegistration(
  db: Queryable,
  userId: string,
): Promise<{
  id: string;
  formId: string;
  status: ExistingRegistration['status'];
  answers: unknown;
  changeRequest: StoredChangeRequest | null;
} | null> {
  const result = await db.query<{
    id: string;
    form_id: string;
    status: ExistingRegistration['status'];
    answers: unknown;
    change_request: StoredChangeRequest | null;
  }>('select id, form_id, status, answers, change_request from registrations where user_id = $1', [
    userId,
  ]);
  const row = result.rows[0];
  return row
    ? {
        id: row.id,
        formId: row.form_id,
        status: row.status,
        answers: row.answers,
        changeRequest: row.change_request,
      }
    : null;
}

/** Removes a registration's affiliated persons rows (a resubmission stores them again). */
export async function deleteRegistrationPersons(
  db: Queryable,
  registrationId: string,
): Promise<void> {
  await db.query('delete from registration_persons where registration_id = $1', [registrationId]);
}

/** The user's registration as a new submission meets it. */
export interface ExistingRegistration {
  id: string;
  submissionHash: string;
  organizationId: string;
  formId: string;
  status: RegistrationStatus;
}

/** The user's registration (one per user), locked for the transaction when `lock` is set. */
export async function findRegistrationOfUser(
  db: Queryable,
  userId: string,
  lock = false,
): Promise<ExistingRegistration | null> {
  const result = await db.query<{
    id: string;
    submission_hash: string;
    organization_id: string;
    form_id: string;
    status: ExistingRegistration['status'];
  }>(
    `select id, submission_hash, organization_id, form_id, status from registrations
      where user_id = $1${lock ? ' for update' : ''}`,
    [userId],
  );
  const row = result.rows[0];
  return row
    ? {
        id: row.id,
        submissionHash: row.submission_hash,
        organizationId: row.organization_id,
        formId: row.form_id,
        status: row.status,
      }
    : null;
}

/** A registration's documents by part, as stored. */
export async function listRegistrationDocuments(
  db: Queryable,
  registrationId: string,
): Promise<Map<string, { name: string; type: string; size: number; storageName: string }>> {
  const rows = await db.query<{
    part: string;
    original_name: string;
    content_type: string;
    size: number;
    storage_name: string;
  }>(
    `select part, original_name, content_type, size, storage_name from registration_documents
      where registration_id = $1`,
    [registrationId],
  );
  return new Map(
    rows.rows.map((row) => [
      row.part,
      {
        name: row.original_name,
        type: row.content_type,
        size: row.size,
        storageName: row.storage_name,
      },
    ]),
  );
}

/** Removes a document of a registration (its bytes go unless a version or another row keeps them). */
export async function deleteRegistrationDocument(
  db: Queryable,
  registrationId: string,
  part: string,
): Promise<void> {
  await db.query('delete from registration_documents where registration_id = $1 and part = $2', [
    registrationId,
    part,
  ]);
}

export async function insertRegistrationDocument(
  db: Queryable,
  registrationId: string,
  part: string,
  file: StoredFile,
): Promise<void> {
  // The bytes go in the same transaction as the row: they commit (or roll back) together.
  await putDocument(db, file);
  await db.query(
    `insert into registration_documents
       (registration_id, part, storage_name, original_name, content_type, size)
     values ($1, $2, $3, $4, $5, $6)`,
    [registrationId, part, file.storageName, file.originalName, file.contentType, file.size],
  );
}

/**
 * The affiliated persons of a registration, one row each in list order: the columns staff list
 * and find them by (filled from the schema's `x-person-column` questions, personColumns.ts) and
 * each person's answers as stored (sensitive ones sealed).
 */
export async function insertRegistrationPersons(
  db: Queryable,
  registrationId: string,
  persons: { columns: PersonColumnValues; stored: unknown }[],
): Promise<void> {
  for (const [position, { columns, stored }] of persons.entries()) {
    await db.query(
      `insert into registration_persons
         (registration_id, position, first_name, last_name, title, ownership_percent, is_direct, answers)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        registrationId,
        position,
        columns.first_name,
        columns.last_name,
        columns.title,
        columns.ownership_percent,
        columns.is_direct,
        JSON.stringify(stored),
      ],
    );
  }
}

/** The applicant a review decision answers: who filed the registration, and how to greet them. */
export interface RegistrationApplicant {
  user_id: string;
  email: string;
  first_name: string | null;
}

/**
 * Sets a registration's review decision when its status is one of `from`; its applicant, or
 * null when it is unknown or no longer in `from` (the caller tells which).
 */
export async function decideOpenRegistration(
  db: Queryable,
  registrationId: string,
  from: readonly string[],
  set: { status: string; reviewedBy: string | null; reason: string | null },
): Promise<RegistrationApplicant | null> {
  const updated = await db.query<RegistrationApplicant>(
    `update registrations r
        set status = $2, reviewed_by = $3, reviewed_at = now(), decision_reason = $4
       from users u
      where r.id = $1 and r.status = any($5) and u.id = r.user_id
      returning r.user_id, u.email, u.details->>'firstName' as first_name`,
    [registrationId, set.status, set.reviewedBy, set.reason, from],
  );
  return updated.rows[0] ?? null;
}

/** A registration's status, or null when there is no such registration. */
export async function findRegistrationStatus(
  db: Queryable,
  registrationId: string,
): Promise<ExistingRegistration['status'] | null> {
  const existing = await db.query<{ status: ExistingRegistration['status'] }>(
    'select status from registrations where id = $1',
    [registrationId],
  );
  return existing.rows[0]?.status ?? null;
}

/** A registration's applicant, form and answers (still sealed), or null. */
export async function findRegistrationAnswers(
  db: Queryable,
  registrationId: string,
): Promise<{ userId: string; formId: string; schemaHash: string; answers: unknown } | null> {
  const result = await db.query<{
    user_id: string;
    form_id: string;
    schema_hash: string;
    answers: unknown;
  }>('select user_id, form_id, schema_hash, answers from registrations where id = $1', [
    registrationId,
  ]);
  const row = result.rows[0];
  return row
    ? {
        userId: row.user_id,
        formId: row.form_id,
        schemaHash: row.schema_hash,
        answers: row.answers,
      }
    : null;
}

/** Stores the changes staff asked of a registration's applicant. */
export async function setChangeRequest(
  db: Queryable,
  registrationId: string,
  changeRequest: StoredChangeRequest,
): Promise<void> {
  await db.query('update registrations set change_request = $2 where id = $1', [
    registrationId,
    JSON.stringify(changeRequest),
  ]);
}

/** Whether staff have admitted the organisation as a clearing participant (after its KYC). */
export async function isAdmittedParticipant(
  db: Queryable,
  organizationId: string,
): Promise<boolean> {
  const result = await db.query(
    `select 1 from organizations where id = $1 and participant_status = 'approved'`,
    [organizationId],
  );
  return result.rowCount === 1;
}

/**
 * The answers (still sealed) of a registration waiting for changes, or null once it no longer
 * waits for them.
 */
export async function findAnswersAwaitingChanges(
  db: Queryable,
  registrationId: string,
): Promise<{ answers: unknown } | null> {
  const result = await db.query<{ answers: unknown }>(
    `select answers from registrations where id = $1 and status = 'changes_requested'`,
    [registrationId],
  );
  return result.rows[0] ?? null;
}

/** Where a registration document's bytes are stored, or null for an unknown document. */
export async function findRegistrationDocumentStorageName(
  db: Queryable,
  documentId: string,
): Promise<string | null> {
  const found = await db.query<{ storage_name: string }>(
    'select storage_name from registration_documents where id = $1',
    [documentId],
  );
  return found.rows[0]?.storage_name ?? null;
}

/** A registration's or application's answers (still sealed) by form. */
export interface StoredAnswers {
  id: string;
  form_id: string;
  answers: unknown;
}

/** Registrations awaiting their first review, oldest first. */
export async function listPendingRegistrationAnswers(db: Queryable): Promise<StoredAnswers[]> {
  const registrations = await db.query<StoredAnswers>(
    `select id, form_id, answers from registrations where status = 'submitted' order by submitted_at, id`,
  );
  return registrations.rows;
}
