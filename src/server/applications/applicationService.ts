/**
 * Applications (issue 17, docs/decisions.md, Applicants and reviewers): the applicant's working
 * copy of a registration form, saved as they work and resumed on any device. The service behind
 * `routes/applications.ts`, as `registration/submitRegistration.ts` is behind the submission.
 *
 * Reads and saves are of the caller's own application (never anyone else's: the row is found by
 * the session's user). A save names the revision it was edited from;
 * a stale one is refused with the stored application so the browser can merge. Answers are
 * checked for shape only (an object, pointers the form knows, the body limit), never for
 * completeness: a draft may be incomplete. Sensitive answers are sealed at rest.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type {
  ApplicationFileResult,
  ApplicationResponse,
  ApplicationView,
  SaveApplicationRequest,
} from '../../shared/api/applications';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import { isPlainObject, type Answers } from '../../shared/forms/model/schemaTypes';
import type { FileReference } from '../../shared/forms/model/types';
import { placeAt, unknownAnswers } from '../../shared/forms/walk/answerPlaces';
import {
  isWithin,
  unrequestedChange,
  unrequestedChangeMessage,
} from '../../shared/forms/walk/changeScope';
import { carryAnswers } from '../../shared/forms/walk/carryOver';
import { allProperties } from '../../shared/forms/walk/schemaWalk';
import { auditingChangeRefusals } from '../audit/changeRefusals';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import {
  claimSaveAudit,
  deleteApplicationFile,
  findApplication,
  findApplicationForSave,
  insertApplication,
  listApplicationFiles,
  putApplicationFile,
  saveAnswersAtRevision,
  updateApplicationAnswers,
  type ApplicationFile,
  type ApplicationRow,
  type ApplicationChangeRequest,
} from '../db/applications';
import { findAnswersAwaitingChanges } from '../db/registrations';
import { findFormVersion, recordFormVersion } from '../db/formVersions';
import type { Queryable } from '../db/transaction';
import { withTransaction } from '../db/transaction';
import { ChangeRefusedError, ClientError, notFound, refusal } from '../errors';
import {
  openApplicationAnswers,
  sealApplicationAnswers,
} from '../fieldEncryption/applicationSealing';
import { openRegistrationAnswers } from '../fieldEncryption/registrationSealing';
import { UnreadableFieldError } from '../fieldEncryption/sealedJson';
import { agreementsSignedAt } from '../signatures/signingTimes';
import type { FileRuleOf, MultipartForm } from '../storage/multipartForm';
import type { StoredFile } from '../db/documents';
import type { UploadKind } from '../storage/uploads';
import { validateAnswers } from '../../shared/forms/validation/validateAnswers';
import { fromPointer, toPointer } from '../../shared/forms/model/pointer';

/** A save's body at most: the business form with 100 affiliated persons is far below it. */
export const APPLICATION_BODY_LIMIT = 1024 * 1024;

export const STALE_REVISION_MESSAGE =
  'This application was changed in another window. Your changes will be merged with the saved answers and saved again.';
const SUBMITTED_MESSAGE =
  'This application has been submitted and is awaiting review, so it can no longer be changed.';
const NOT_WAITING_MESSAGE =
  'Your registration is no longer waiting for changes. Please reload the page.';
const UNREADABLE_MESSAGE =
  'Your saved application cannot be opened right now. Please try again later or contact support.';

type SaveOutcome = { saved: { revision: number; updatedAt: Date } } | { conflict: ApplicationView };

/** The registration form an application is for; 404 for any other id. */
export function applicationForm(app: FastifyInstance, formId: string): CompiledForm {
  const form = app.forms.get(formId);
  if (!form?.registration) throw notFound('There is no registration form of that name.');
  return form;
}

/** What a file question takes, judged by content (`x-file`: image, pdf, image-or-pdf). */
function fileKind(form: CompiledForm, pointer: string): UploadKind {
  const key = fromPointer(pointer)[0]!;
  return allProperties(form.schema, form.schema)[key]?.['x-file'] ?? 'pdf';
}

/** The file questions of a form by pointer (those the final submission takes as file parts). */
export function fileQuestions(form: CompiledForm): Map<string, { prompt: string }> {
  const out = new Map<string, { prompt: string }>();
  for (const [key, schema] of Object.entries(allProperties(form.schema, form.schema))) {
    if (schema['x-file']) out.set(toPointer([key]), { prompt: schema.title ?? key });
  }
  return out;
}

/** The stored answers with each file question answered by the file the application holds. */
function withHeldFiles(
  form: CompiledForm,
  answers: Answers,
  files: readonly ApplicationFile[],
): Answers {
  const out = { ...answers };
  for (const pointer of fileQuestions(form).keys()) delete out[fromPointer(pointer)[0]!];
  for (const file of files) {
    const key = fromPointer(file.pointer)[0]!;
    out[key] = { name: file.name, type: file.type, size: file.size } satisfies FileReference;
  }
  return out;
}

/** The application as its owner reads it: answers opened, files by pointer, prompts by pointer. */
async function applicationView(
  app: FastifyInstance,
  db: Queryable,
  form: CompiledForm,
  row: ApplicationRow,
): Promise<ApplicationView> {
  let answers: Answers;
  try {
    answers = openApplicationAnswers(app.fieldKeys, row.id, row.answers);
  } catch (error) {
    if (error instanceof UnreadableFieldError) throw new ClientError(503, UNREADABLE_MESSAGE);
    throw error;
  }
  const files = await listApplicationFiles(db, row.id);
  const request = row.status === 'changes_requested' ? row.changeRequest : null;
  // What change mode judges editable from, as the server does (the application's own answers
  // only if the registration no longer waits: a resubmission then refuses anyway).
  const submitted = request ? ((await submittedAnswers(app, db, request)) ?? answers) : null;
  return {
    formId: row.formId,
    schemaHash: row.schemaHash,
    revision: row.revision,
    savedAt: row.updatedAt.toISOString(),
    step: row.step,
    status: row.status,
    answers,
    files: Object.fromEntries(
      files.map((file) => [file.pointer, { name: file.name, type: file.type, size: file.size }]),
    ),
    changeRequest: request
      ? {
          note: request.note ?? '',
          fields: (request.fields ?? []).map((field) => ({
            path: field.path,
            prompt: placeAt(form.schema, field.path)?.prompt ?? field.path,
            note: field.note,
          })),
          submitted: submitted ?? {},
        }
      : null,
    carriedOver: row.carriedOver,
  };
}

/**
 * The application carried to the form's current version when it was saved under an earlier one
 * (a schema change deployed since): answers by pointer, kept where the question still exists,
 * accepts them and shows them; held files of dropped questions deleted; what changed kept for the
 * applicant (`carriedOver`) until their next save. The row must be locked by the caller.
 */
async function carriedApplication(
  app: FastifyInstance,
  db: Queryable,
  form: CompiledForm,
  row: ApplicationRow,
): Promise<ApplicationRow> {
  if (row.schemaHash === form.hash) return row;
  const previous = await findFormVersion(db, row.schemaHash);
  const answers = openApplicationAnswers(app.fieldKeys, row.id, row.answers);
  const carried = carryAnswers(previous?.schema, form, answers);
  const questions = fileQuestions(form);
  for (const file of await listApplicationFiles(db, row.id)) {
    if (!questions.has(file.pointer) || carried.droppedPointers.includes(file.pointer)) {
      await deleteApplicationFile(db, row.id, file.pointer);
    }
  }
  const next = withHeldFiles(form, carried.answers, await listApplicationFiles(db, row.id));
  await recordFormVersion(db, form);
  return updateApplicationAnswers(db, row.id, {
    answers: sealApplicationAnswers(app.fieldKeys, form, row.id, next),
    schemaHash: form.hash,
    carriedOver: { added: carried.added, reworded: carried.reworded, dropped: carried.dropped },
  });
}

/** Shape only: an object whose every answer is at a place the form asks something. */
function checkShape(form: CompiledForm, answers: unknown): Answers {
  if (!isPlainObject(answers)) throw new ClientError(400, 'The answers must be an object.');
  const unknown = unknownAnswers(form.schema, answers);
  if (unknown.length > 0) {
    const named = unknown.slice(0, 5).join(', ');
    throw new ClientError(400, `The answers name questions this form does not ask: ${named}.`);
  }
  return answers;
}

/**
 * The answers as submitted of the registration a change request reopened: what the request's
 * rule compares with (never the application's since saved, or a change allowed once would be
 * refused on the next save). 409 once the registration no longer waits for changes.
 */
async function submittedAnswers(
  app: FastifyInstance,
  db: Queryable,
  request: ApplicationChangeRequest,
): Promise<Answers | null> {
  const row = await findAnswersAwaitingChanges(db, request.registrationId);
  return row ? openRegistrationAnswers(app.fieldKeys, request.registrationId, row.answers) : null;
}

/** What a change request lets change: the answers as submitted and the marked pointers. */
interface RequestScope {
  submitted: Answers;
  marked: string[];
}

/**
 * The scope of the change request the application answers; null when nothing narrows it (no
 * request, or a note alone: the rule lets every answer change, the registration need not be read).
 */
async function requestScope(
  app: FastifyInstance,
  db: Queryable,
  row: ApplicationRow,
): Promise<RequestScope | null> {
  const request = row.status === 'changes_requested' ? row.changeRequest : null;
  const marked = (request?.fields ?? []).map((field) => field.path);
  if (!request || marked.length === 0) return null;
  const submitted = await submittedAnswers(app, db, request);
  if (!submitted) throw refusal(409, 'changes_locked', NOT_WAITING_MESSAGE);
  return { submitted, marked };
}

/**
 * `next` (the application's answers after a save, upload or removal) may change only what the
 * request asked for: the walker's one rule (`unrequestedChange`), as the resubmission and change
 * mode judge it. Refused with 409 naming the question by prompt.
 */
function checkRequested(
  form: CompiledForm,
  scope: RequestScope | null,
  next: Answers,
  replaced: readonly string[] = [],
): void {
  if (!scope) return;
  const outside = unrequestedChange(form, scope.submitted, next, scope.marked, replaced);
  if (outside) throw new ChangeRefusedError(outside.pointer, unrequestedChangeMessage(outside));
}

/** The registration a change request reopened as this application, if any (audit rows name it). */
const requestOf = (row: ApplicationRow): string | null =>
  row.status === 'changes_requested' ? (row.changeRequest?.registrationId ?? null) : null;

/** Whether the application takes changes at all: refused once submitted (outside a request). */
function checkOpen(row: ApplicationRow | null): void {
  if (row?.status === 'submitted') throw refusal(409, 'changes_locked', SUBMITTED_MESSAGE);
}

/**
 * The user's application of a form, locked for this transaction; created empty when there is
 * none yet (a file chosen before the first save).
 */
async function lockedApplication(
  app: FastifyInstance,
  db: Queryable,
  form: CompiledForm,
  userId: string,
): Promise<ApplicationRow> {
  const row = await findApplication(db, userId, form.id, { forUpdate: true });
  if (row) return carriedApplication(app, db, form, row);
  const created = await createApplication(app, db, form, userId, {}, null);
  return created ?? (await findApplication(db, userId, form.id, { forUpdate: true }))!;
}

/**
 * The user's first application of a form, holding `answers` (sealed under its id) and `step`,
 * its form version recorded and its creation audited; null when another window created it first.
 */
async function createApplication(
  app: FastifyInstance,
  db: Queryable,
  form: CompiledForm,
  userId: string,
  answers: Answers,
  step: number | null,
): Promise<ApplicationRow | null> {
  await recordFormVersion(db, form);
  const id = crypto.randomUUID();
  const created = await insertApplication(db, {
    id,
    userId,
    formId: form.id,
    schemaHash: form.hash,
    answers: sealApplicationAnswers(app.fieldKeys, form, id, answers),
    step,
  });
  if (!created) return null;
  await recordAuditEvent(db, {
    action: 'application.created',
    actorUserId: userId,
    detail: { formId: form.id, applicationId: id },
  });
  return created;
}

/** A file question of the form by pointer (400 for any other pointer). */
function fileQuestion(form: CompiledForm, pointer: string | undefined): { prompt: string } {
  const question = pointer === undefined ? undefined : fileQuestions(form).get(pointer);
  if (!question) {
    throw new ClientError(
      400,
      pointer === undefined
        ? 'Name the question the file answers (the pointer field, before the file).'
        : `This form has no file question at ${pointer}.`,
    );
  }
  return question;
}

/**
 * A held file put or removed (`change`, in the caller's transaction): the application's answers
 * then name its files, judged by the change request's rule like a save, and saved. A removal of
 * a file not held (`change` answers false) changes nothing and is not judged. The change is
 * audited (`audit`: who, what; the file's pointer, type and size, never its name) in the same
 * transaction.
 */
async function changeHeldFile(
  app: FastifyInstance,
  db: Queryable,
  form: CompiledForm,
  row: ApplicationRow,
  pointer: string,
  change: () => Promise<unknown>,
  audit: {
    userId: string;
    action: 'application.file-uploaded' | 'application.file-removed';
    detail?: Record<string, string | number>;
  },
): Promise<ApplicationRow> {
  if ((await change()) === false) return row;
  const answers = openApplicationAnswers(app.fieldKeys, row.id, row.answers);
  const next = withHeldFiles(form, answers, await listApplicationFiles(db, row.id));
  checkRequested(form, await requestScope(app, db, row), next, [pointer]);
  const updated = await updateApplicationAnswers(db, row.id, {
    answers: sealApplicationAnswers(app.fieldKeys, form, row.id, next),
    schemaHash: row.schemaHash,
  });
  await recordAuditEvent(db, {
    action: audit.action,
    actorUserId: audit.userId,
    registrationId: requestOf(row),
    detail: { formId: form.id, applicationId: row.id, field: pointer, ...audit.detail },
  });
  return updated;
}

/**
 * The schema's rules for a file answer (its size, its type), as the final submission will judge
 * the reference: refused with the schema's message at the pointer; 413 when it is the size.
 */
function checkFileAnswer(form: CompiledForm, pointer: string, file: StoredFile): FileReference {
  const reference = { name: file.originalName, type: file.contentType, size: file.size };
  const key = fromPointer(pointer)[0]!;
  const { errors } = validateAnswers(form, { ...form.example, [key]: reference });
  const mine = errors.filter((error) => isWithin(error.path, pointer));
  if (mine.length > 0) {
    const message = mine[0]!.message;
    const schema = placeAt(form.schema, pointer)?.schema;
    const maximum = (schema?.properties?.size as { maximum?: unknown } | undefined)?.maximum;
    const status = typeof maximum === 'number' && file.size > maximum ? 413 : 400;
    throw new ClientError(status, message, { [pointer]: message });
  }
  return reference;
}

/**
 * The save as an autosave almost always is: the application exists, is a draft (not submitted,
 * no change request), is under the form's current version and at the revision the browser
 * edited, and the answers are shaped right. Then it takes two statements
 * and no transaction: the application and its files read together, the answers written only if
 * the revision has not moved since (`saveAnswersAtRevision`). Null when any of that does not
 * hold, or the write found the application changed meanwhile: the locked save then decides
 * (creation, carry-over, the stale-revision answer, every refusal) exactly as it always did.
 */
async function saveAtOnce(
  app: FastifyInstance,
  form: CompiledForm,
  userId: string,
  body: { answers: unknown; baseRevision: number; step?: number | null | undefined },
): Promise<SaveOutcome | null> {
  const current = await findApplicationForSave(app.db, userId, form.id);
  // Under a change request a save is judged against the submitted registration: the locked save.
  if (!current || current.status !== 'draft' || current.schemaHash !== form.hash) return null;
  if (current.revision !== body.baseRevision || !isPlainObject(body.answers)) return null;
  if (unknownAnswers(form.schema, body.answers).length > 0) return null;
  const next = withHeldFiles(form, body.answers, current.files);
  const saved = await saveAnswersAtRevision(app.db, current.id, current.revision, {
    answers: sealApplicationAnswers(app.fieldKeys, form, current.id, next),
    schemaHash: form.hash,
    ...(body.step !== undefined ? { step: body.step } : {}),
    agreementsSignedAt: agreementsSignedAt(form, next, current.agreementsSignedAt),
  });
  if (!saved) return null;
  // Written after the save (this path holds no transaction); a save is audited once per step or
  // per minute, which the save's own statement claimed.
  if (saved.audit) {
    await recordAuditEvent(app.db, savedEvent(userId, form, current.id, saved.revision, body.step));
  }
  return { saved };
}

/** The audit row of a save (`application.saved`): ids, the revision, the step. */
function savedEvent(
  userId: string,
  form: CompiledForm,
  applicationId: string,
  revision: number,
  step: number | null | undefined,
  registrationId: string | null = null,
): Parameters<typeof recordAuditEvent>[1] {
  return {
    action: 'application.saved',
    actorUserId: userId,
    registrationId,
    detail: {
      formId: form.id,
      applicationId,
      revision,
      ...(typeof step === 'number' ? { step } : {}),
    },
  };
}

/** The caller's application of a form as they read it; carried to the form's current version first. */
export async function readApplication(
  app: FastifyInstance,
  userId: string,
  form: CompiledForm,
): Promise<ApplicationResponse> {
  const row = await findApplication(app.db, userId, form.id);
  if (!row) return { application: null };
  if (row.schemaHash === form.hash) {
    return { application: await applicationView(app, app.db, form, row) };
  }
  // Saved under an earlier version of the form: carried to this one first (once).
  return withTransaction(app.db, async (db) => {
    const locked = await findApplication(db, userId, form.id, { forUpdate: true });
    if (!locked) return { application: null };
    const carried = await carriedApplication(app, db, form, locked);
    return { application: await applicationView(app, db, form, carried) };
  });
}

/**
 * A save of the caller's answers (and step), made from revision `baseRevision`: the fast save
 * when it applies, else the locked save, which creates the application, carries it over, answers
 * a stale revision with the stored application (`conflict`) and judges a change request's scope.
 */
export async function saveApplication(
  app: FastifyInstance,
  userId: string,
  form: CompiledForm,
  body: SaveApplicationRequest,
): Promise<SaveOutcome> {
  const sent: unknown = body.answers;
  const { baseRevision, step } = body;
  const fast = await saveAtOnce(app, form, userId, body);
  if (fast) return fast;
  return auditingChangeRefusals(app.db, { userId, formId: form.id, via: 'save' }, () =>
    withTransaction(app.db, async (db): Promise<SaveOutcome> => {
      let row = await findApplication(db, userId, form.id, { forUpdate: true });
      if (!row) {
        const answers = checkShape(form, sent);
        const created = await createApplication(
          app,
          db,
          form,
          userId,
          withHeldFiles(form, answers, []),
          step ?? null,
        );
        if (created) return { saved: created };
        // A first save from another window won the race: this one is stale.
        row = (await findApplication(db, userId, form.id, { forUpdate: true }))!;
      }
      checkOpen(row);
      // Carried to the current version first: a save from before the carry is then stale.
      row = await carriedApplication(app, db, form, row);
      if (row.revision !== baseRevision) {
        return { conflict: await applicationView(app, db, form, row) };
      }
      // Checked after the revision: a stale save from an older form gets the current answers.
      const answers = checkShape(form, sent);
      const files = await listApplicationFiles(db, row.id);
      const next = withHeldFiles(form, answers, files);
      checkRequested(form, await requestScope(app, db, row), next);
      const saved = await updateApplicationAnswers(db, row.id, {
        answers: sealApplicationAnswers(app.fieldKeys, form, row.id, next),
        schemaHash: form.hash,
        // The applicant has seen the form as carried over: told once.
        carriedOver: null,
        ...(step !== undefined ? { step } : {}),
        agreementsSignedAt: agreementsSignedAt(form, next, row.agreementsSignedAt),
      });
      const stepChanged = step !== undefined && step !== row.step;
      if (await claimSaveAudit(db, row.id, stepChanged)) {
        await recordAuditEvent(
          db,
          savedEvent(userId, form, row.id, saved.revision, step, requestOf(row)),
        );
      }
      return { saved };
    }),
  );
}

/**
 * A file for one question of the caller's application. `read` reads the request's multipart
 * form with the rule given: a file is refused before a byte is read when the application cannot
 * take it (submitted, or outside a change request's scope) or the pointer names no file question.
 */
export async function uploadApplicationFile(
  app: FastifyInstance,
  userId: string,
  form: CompiledForm,
  read: (files: FileRuleOf) => Promise<MultipartForm>,
): Promise<ApplicationFileResult> {
  const refusals = { userId, formId: form.id, via: 'upload' } as const;
  return auditingChangeRefusals(app.db, refusals, async () => {
    const before = await findApplication(app.db, userId, form.id);
    checkOpen(before);
    const scope = before && (await requestScope(app, app.db, before));
    const held = scope && openApplicationAnswers(app.fieldKeys, before.id, before.answers);
    let pointer: string | undefined;
    const upload = await read((name, fields) => {
      if (name !== 'file') return undefined;
      pointer = fields.get('pointer')?.[0];
      const question = fileQuestion(form, pointer);
      if (held) checkRequested(form, scope, held, [pointer!]);
      return { accept: fileKind(form, pointer!), label: question.prompt };
    }).catch((error: unknown) => {
      // The storage module's refusal names the question; the form shows it beside it too.
      if (error instanceof ClientError && pointer && !error.errors && error.statusCode < 500) {
        throw new ClientError(
          error.statusCode,
          error.message,
          { [pointer]: error.message },
          undefined,
          error.code,
        );
      }
      throw error;
    });
    const file = upload.files.get('file');
    if (!file || pointer === undefined) {
      fileQuestion(form, upload.field('pointer'));
      throw new ClientError(400, 'No file was sent.');
    }
    const at = pointer;
    const reference = checkFileAnswer(form, at, file);
    // The application row locked, as a submission locks it: an upload either lands before a
    // (re)submission reads the application's files, or meets it submitted and is refused.
    const saved = await withTransaction(app.db, async (db) => {
      const row = await lockedApplication(app, db, form, userId);
      checkOpen(row);
      return changeHeldFile(
        app,
        db,
        form,
        row,
        at,
        () => putApplicationFile(db, row.id, at, file),
        {
          userId,
          action: 'application.file-uploaded',
          detail: { type: file.contentType, size: file.size },
        },
      );
    });
    return { pointer: at, ...reference, revision: saved.revision };
  });
}

/** The file held for one question removed (nothing when none is held). */
export async function removeApplicationFile(
  app: FastifyInstance,
  userId: string,
  form: CompiledForm,
  pointer: string | undefined,
): Promise<void> {
  fileQuestion(form, pointer);
  const refusals = { userId, formId: form.id, via: 'removal' } as const;
  await auditingChangeRefusals(app.db, refusals, () =>
    withTransaction(app.db, async (db) => {
      const found = await findApplication(db, userId, form.id, { forUpdate: true });
      if (!found) return;
      checkOpen(found);
      const row = await carriedApplication(app, db, form, found);
      await changeHeldFile(
        app,
        db,
        form,
        row,
        pointer!,
        () => deleteApplicationFile(db, row.id, pointer!),
        { userId, action: 'application.file-removed' },
      );
    }),
  );
}
