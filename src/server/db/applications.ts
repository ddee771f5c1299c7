/**
 * Applications on the server (migration 100): one working copy per user and registration form,
 * its files by pointer. Row functions only: callers seal and open the answers
 * (`fieldEncryption/applicationSealing.ts`) and decide what a change may do.
 */
import type { CarriedOver } from '../../shared/api/applications';
import type { FileReference } from '../../shared/forms/model/types';
import { putDocument, type StoredFile } from './documents';
import type { Queryable } from './transaction';

export type ApplicationStatus = 'draft' | 'submitted' | 'changes_requested';

/** What staff asked to change, as an application keeps it (set by the change-request API; the registration's own copy is db/registrations' StoredChangeRequest). */
export interface ApplicationChangeRequest {
  registrationId: string;
  note: string;
  fields: { path: string; note: string }[];
}

/** An application row as stored (answers still sealed). */
export interface ApplicationRow {
  id: string;
  userId: string;
  formId: string;
  schemaHash: string;
  /** Sensitive answers sealed (`applications.answers` of this row). */
  answers: Record<string, unknown>;
  revision: number;
  step: number | null;
  status: ApplicationStatus;
  changeRequest: ApplicationChangeRequest | null;
  /** What the last carry-over to a newer form version changed, until the next save. */
  carriedOver: CarriedOver | null;
  /** When each agreement was signed, by pointer (signatures/signingTimes.ts). */
  agreementsSignedAt: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

/** A file held by an application for one file question. */
export interface ApplicationFile extends FileReference {
  pointer: string;
  storageName: string;
}

interface Row {
  id: string;
  user_id: string;
  form_id: string;
  schema_hash: string;
  answers: Record<string, unknown>;
  revision: number;
  step: number | null;
  status: ApplicationStatus;
  change_request: ApplicationChangeRequest | null;
  carried_over: CarriedOver | null;
  agreements_signed_at: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, user_id, form_id, schema_hash, answers, revision, step, status, change_request, carried_over, agreements_signed_at, created_at, updated_at';

const toApplication = (row: Row): ApplicationRow => ({
  id: row.id,
  userId: row.user_id,
  formId: row.form_id,
  schemaHash: row.schema_hash,
  answers: row.answers,
  revision: row.revision,
  step: row.step,
  status: row.status,
  changeRequest: row.change_request,
  carriedOver: row.carried_over,
  agreementsSignedAt: row.agreements_signed_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * The user's application of a form, or null. `forUpdate` locks the row until the transaction
 * ends (a save, a file, a submission serialise on it).
 */
export async function findApplication(
  db: Queryable,
  userId: string,
  formId: string,
  options: { forUpdate?: boolean } = {},
): Promise<ApplicationRow | null> {
  const result = await db.query<Row>(
    `select ${COLUMNS} from applications where user_id = $1 and form_id = $2${
      options.forUpdate ? ' for update' : ''
    }`,
    [userId, formId],
  );
  return result.rows[0] ? toApplication(result.rows[0]) : null;
}

/**
 * Creates the user's application of a form at revision 1; null when one already exists (two
 * first saves raced: the caller answers with the one stored).
 */
export async function insertApplication(
  db: Queryable,
  application: {
    id: string;
    userId: string;
    formId: string;
    schemaHash: string;
    answers: unknown;
    step: number | null;
  },
): Promise<ApplicationRow | null> {
  const result = await db.query<Row>(
    `insert into applications (id, user_id, form_id, schema_hash, answers, step)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (user_id, form_id) do nothing
     returning ${COLUMNS}`,
    [
      application.id,
      application.userId,
      application.formId,
      application.schemaHash,
      JSON.stringify(application.answers),
      application.step,
    ],
  );
  return result.rows[0] ? toApplication(result.rows[0]) : null;
}

/**
 * Stores new answers (sealed) as the next revision; returns the row as it now is. `step` and
 * `carriedOver` are left as they were when not given (null clears them).
 */
export async function updateApplicationAnswers(
  db: Queryable,
  id: string,
  change: {
    answers: unknown;
    schemaHash: string;
    step?: number | null;
    carriedOver?: CarriedOver | null;
    agreementsSignedAt?: Record<string, string>;
  },
): Promise<ApplicationRow> {
  const result = await db.query<Row>(
    `update applications
        set answers = $2, schema_hash = $3, step = case when $5 then $4 else step end,
            carried_over = case when $7 then $6::jsonb else carried_over end,
            agreements_signed_at = coalesce($8::jsonb, agreements_signed_at),
            revision = revision + 1, updated_at = now()
      where id = $1
      returning ${COLUMNS}`,
    [
      id,
      JSON.stringify(change.answers),
      change.schemaHash,
      change.step ?? null,
      change.step !== undefined,
      change.carriedOver ? JSON.stringify(change.carriedOver) : null,
      change.carriedOver !== undefined,
      change.agreementsSignedAt ? JSON.stringify(change.agreementsSignedAt) : null,
    ],
  );
  return toApplication(result.rows[0]!);
}

/**
 * Saves are audited once per step or per minute, never per keystroke: whether this save (to
 * `step`, when it names one) is one to write to the trail, claimed on the row so two saves in
 * the same minute claim it once. An expression of an UPDATE's SET, where columns are the old row.
 */
const SAVE_AUDIT_DUE = `save_audited_at is null or save_audited_at < now() - interval '1 minute'`;

/** Claims the audit of a save (see SAVE_AUDIT_DUE); true when the caller should write it. */
export async function claimSaveAudit(
  db: Queryable,
  id: string,
  stepChanged: boolean,
): Promise<boolean> {
  const result = await db.query(
    `update applications set save_audited_at = now()
      where id = $1 and ($2 or ${SAVE_AUDIT_DUE})`,
    [id, stepChanged],
  );
  return (result.rowCount ?? 0) > 0;
}

/**
 * The user's application of a form as a save judges it, in one statement and without a lock:
 * its revision, status, change request and version, and the files it holds (read in the same
 * snapshot), never its answers (a draft's save replaces them). A save built on it is written with `saveAnswersAtRevision`, which refuses it if anything
 * changed since.
 */
interface ApplicationForSave {
  id: string;
  schemaHash: string;
  revision: number;
  status: ApplicationStatus;
  changeRequest: ApplicationChangeRequest | null;
  agreementsSignedAt: Record<string, string>;
  files: ApplicationFile[];
}

export async function findApplicationForSave(
  db: Queryable,
  userId: string,
  formId: string,
): Promise<ApplicationForSave | null> {
  // Named: every autosave runs it, so PostgreSQL plans it once per connection.
  const result = await db.query<{
    id: string;
    schema_hash: string;
    revision: number;
    status: ApplicationStatus;
    change_request: ApplicationChangeRequest | null;
    agreements_signed_at: Record<string, string>;
    files: ApplicationFile[];
  }>({
    name: 'application-for-save',
    text: `select a.id, a.schema_hash, a.revision, a.status, a.change_request,
                  a.agreements_signed_at,
                  coalesce((select json_agg(json_build_object(
                                    'pointer', f.pointer, 'storageName', f.storage_name,
                                    'name', f.original_name, 'type', f.content_type,
                                    'size', f.size) order by f.pointer)
                              from application_files f where f.application_id = a.id),
                           '[]') as files
             from applications a where a.user_id = $1 and a.form_id = $2`,
    values: [userId, formId],
  });
  const row = result.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    schemaHash: row.schema_hash,
    revision: row.revision,
    status: row.status,
    changeRequest: row.change_request,
    agreementsSignedAt: row.agreements_signed_at,
    files: row.files,
  };
}

/**
 * Stores new answers (sealed) as the next revision if the application is still at `revision`
 * under `schemaHash` and not submitted: one statement, atomic on its own. Every other change to
 * an application (a file held or removed, a status, a carry-over) moves the revision, so a save
 * judged on an older state writes nothing and null is returned. `step` is left as it was when
 * not given; the carry-over notice is cleared (the applicant has seen the form as carried).
 * `audit` says whether this save is one the audit trail records (SAVE_AUDIT_DUE, claimed here).
 */
export async function saveAnswersAtRevision(
  db: Queryable,
  id: string,
  revision: number,
  change: {
    answers: unknown;
    schemaHash: string;
    step?: number | null;
    agreementsSignedAt: Record<string, string>;
  },
): Promise<{ revision: number; updatedAt: Date; audit: boolean } | null> {
  const result = await db.query<{ revision: number; updated_at: Date; audit: boolean }>({
    name: 'application-save-at-revision',
    text: `update applications
              set answers = $3, step = case when $5 then $4 else step end, carried_over = null,
                  agreements_signed_at = $7,
                  save_audited_at = case when ($5 and step is distinct from $4) or ${SAVE_AUDIT_DUE}
                                         then now() else save_audited_at end,
                  revision = revision + 1, updated_at = now()
            where id = $1 and revision = $2 and schema_hash = $6 and status <> 'submitted'
            returning revision, updated_at, save_audited_at = now() as audit`,
    values: [
      id,
      revision,
      JSON.stringify(change.answers),
      change.step ?? null,
      change.step !== undefined,
      change.schemaHash,
      JSON.stringify(change.agreementsSignedAt),
    ],
  });
  const row = result.rows[0];
  return row ? { revision: row.revision, updatedAt: row.updated_at, audit: row.audit } : null;
}

/** Sets an application's status (and its change request: null clears it). */
export async function setApplicationStatus(
  db: Queryable,
  id: string,
  status: ApplicationStatus,
  changeRequest: ApplicationChangeRequest | null = null,
): Promise<void> {
  await db.query(
    `update applications
        set status = $2, change_request = $3, revision = revision + 1, updated_at = now()
      where id = $1`,
    [id, status, changeRequest === null ? null : JSON.stringify(changeRequest)],
  );
}

/**
 * The application a change request on `registrationId` reopened, closed again (submitted, no
 * request): the registration was rejected while waiting for the changes. Nothing when none waits.
 */
export async function closeApplicationReopenedBy(
  db: Queryable,
  registrationId: string,
): Promise<void> {
  await db.query(
    `update applications
        set status = 'submitted', change_request = null, revision = revision + 1, updated_at = now()
      where status = 'changes_requested' and change_request->>'registrationId' = $1`,
    [registrationId],
  );
}

/** The files an application holds, by pointer. */
export async function listApplicationFiles(
  db: Queryable,
  applicationId: string,
): Promise<ApplicationFile[]> {
  const result = await db.query<{
    pointer: string;
    storage_name: string;
    original_name: string;
    content_type: string;
    size: number;
  }>(
    `select pointer, storage_name, original_name, content_type, size
       from application_files where application_id = $1 order by pointer`,
    [applicationId],
  );
  return result.rows.map((row) => ({
    pointer: row.pointer,
    storageName: row.storage_name,
    name: row.original_name,
    type: row.content_type,
    size: row.size,
  }));
}

/**
 * Stores a checked upload as the application's file for `pointer`, replacing an earlier one
 * (whose bytes a trigger deletes unless a registration or another row still references them).
 * The bytes are written in the caller's transaction.
 */
export async function putApplicationFile(
  db: Queryable,
  applicationId: string,
  pointer: string,
  file: StoredFile,
): Promise<void> {
  await putDocument(db, file);
  await db.query(HOLD_FILE_SQL, [
    applicationId,
    pointer,
    file.storageName,
    file.originalName,
    file.contentType,
    file.size,
  ]);
}

/** The application holds this stored file for the pointer (replacing what it held there). */
const HOLD_FILE_SQL = `insert into application_files
       (application_id, pointer, storage_name, original_name, content_type, size)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (application_id, pointer) do update
       set storage_name = excluded.storage_name, original_name = excluded.original_name,
           content_type = excluded.content_type, size = excluded.size, created_at = now()`;

/** Removes the application's file for `pointer`; false when it held none. */
export async function deleteApplicationFile(
  db: Queryable,
  applicationId: string,
  pointer: string,
): Promise<boolean> {
  const result = await db.query(
    'delete from application_files where application_id = $1 and pointer = $2',
    [applicationId, pointer],
  );
  return (result.rowCount ?? 0) > 0;
}

/**
 * Makes the application hold an already stored file for `pointer` (a registration's document
 * handed back when changes are requested): no bytes are copied, the row references them.
 */
export async function holdStoredFile(
  db: Queryable,
  applicationId: string,
  pointer: string,
  file: FileReference & { storageName: string },
): Promise<void> {
  await db.query(HOLD_FILE_SQL, [
    applicationId,
    pointer,
    file.storageName,
    file.name,
    file.type,
    file.size,
  ]);
}

/** Removes every file an application holds (its files are then set again from a registration). */
export async function deleteApplicationFiles(db: Queryable, applicationId: string): Promise<void> {
  await db.query('delete from application_files where application_id = $1', [applicationId]);
}

/** Applications still being filled in, or reopened for the changes staff asked for; oldest first. */
export async function listOpenApplicationAnswers(
  db: Queryable,
): Promise<{ id: string; form_id: string; answers: unknown }[]> {
  const applications = await db.query<{ id: string; form_id: string; answers: unknown }>(
    `select id, form_id, answers from applications
      where status in ('draft', 'changes_requested') order by created_at, id`,
  );
  return applications.rows;
}
