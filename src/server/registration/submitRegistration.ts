/**
 * A registration submitted, first or again after a change request (issue 17), written once
 * (issue 26): read the answers → drop the files of hidden answers → the payload → one
 * transaction: seal → the registration row → persons → documents → version → status → signature
 * evidence → audit. The SQL lives in `db/`.
 *
 * Locks, in the one order every writer takes them: the user's row (a double click must not
 * create two organisations), their registration, their application. The application's files
 * are read inside the transaction, after its row is locked: an upload either landed before
 * (and is part of this submission) or meets the application submitted and is refused (409);
 * it is never taken and then lost.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { canonicalJson } from '../../shared/forms/model/bundleForm';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import { withReadOnlyPrefill } from '../../shared/forms/model/prefill';
import {
  isPlainObject,
  type Answers,
  type RegistrationAnnotation,
} from '../../shared/forms/model/schemaTypes';
import type { FileReference } from '../../shared/forms/model/types';
import {
  fromPayload,
  PayloadError,
  signedDocuments,
  toPayloadJson,
  type PayloadTrace,
} from '../../shared/forms/payload/payload';
import { validateAnswers } from '../../shared/forms/validation/validateAnswers';
import { omitHiddenAnswers, trimAnswers } from '../../shared/forms/walk/answers';
import { unrequestedChange, unrequestedChangeMessage } from '../../shared/forms/walk/changeScope';
import { allProperties } from '../../shared/forms/walk/schemaWalk';
import { auditingChangeRefusals } from '../audit/changeRefusals';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import {
  findApplication,
  listApplicationFiles,
  setApplicationStatus,
  type ApplicationRow,
} from '../db/applications';
import {
  deleteRegistrationDocument,
  deleteRegistrationPersons,
  findRegistrationForChanges,
  findRegistrationOfUser,
  insertOrganization,
  insertRegistration,
  insertRegistrationDocument,
  insertRegistrationPersons,
  listRegistrationDocuments,
  updateResubmittedRegistration,
  type ExistingRegistration,
} from '../db/registrations';
import { recordStatusChange } from '../db/registrationVersions';
import { ensureFirstVersion, insertRegistrationVersion } from './registrationVersions';
import { withTransaction, type Queryable } from '../db/transaction';
import { lockUser, setRegistrantDetails, type UserRow } from '../db/users';
import { ChangeRefusedError, ClientError, refusal } from '../errors';
import { submissionHash as keyedSubmissionHash } from '../fieldEncryption/keyRing';
import {
  openRegistrationAnswers,
  sealRegistration,
  sensitivePayloadTrace,
} from '../fieldEncryption/registrationSealing';
import { personColumnValues, personItemSchema } from '../../shared/forms/model/personColumns';
import { findEsignConsent } from '../db/esignConsents';
import { currentEsignConsentVersion, esignConsentWording } from '../signatures/esignConsents';
import { recordSignatureEvidence } from '../signatures/signatureEvidence';
import { discardForm, type FileRule, type readMultipartForm } from '../storage/multipartForm';
import { deleteStored } from '../storage/uploads';
import { fromPointer, toPointer } from '../../shared/forms/model/pointer';

type Form = Awaited<ReturnType<typeof readMultipartForm>>;
type StoredDocuments = Awaited<ReturnType<typeof listRegistrationDocuments>>;

/** What a form's multipart payload may carry, read from its schema once at start. */
export interface FormParts {
  compiled: CompiledForm;
  /** Every file part: the file answers and the signed documents. */
  fileRules: Record<string, FileRule>;
  /** The file answers' parts (`photoId`). */
  answerFiles: string[];
  documents: ReturnType<typeof signedDocuments>;
  /** The text parts: `formId`, `schemaHash` and the JSON sections. */
  textParts: string[];
  registration: RegistrationAnnotation;
  /** 'an individual', 'a business': for the wrong-form message. */
  article: string;
}

export function formParts(form: CompiledForm, registration: RegistrationAnnotation): FormParts {
  const fileRules: Record<string, FileRule> = {};
  for (const [key, schema] of Object.entries(allProperties(form.schema, form.schema))) {
    const kind = schema['x-file'];
    // Messages name the field by its prompt, as the user saw it (never by its key).
    if (kind) fileRules[key] = { accept: kind, label: schema.title ?? key };
  }
  const answerFiles = Object.keys(fileRules);
  const documents = signedDocuments(form);
  for (const document of documents) {
    fileRules[document.part] = { accept: 'pdf', label: document.title };
  }
  const sections = form.schema['x-sections'] ?? {};
  const sectionParts = new Set(Object.values(sections).map((pointer) => fromPointer(pointer)[0]!));
  const kind = registration.organizationKind;
  return {
    compiled: form,
    fileRules,
    answerFiles,
    documents,
    textParts: ['formId', 'schemaHash', ...sectionParts],
    registration,
    article: `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`,
  };
}

/** Who submits, from where. */
interface Submitter {
  row: UserRow;
  ip: string;
  userAgent: string | undefined;
}

/**
 * The registration a change request reopened, as this resubmission meets it: its answers as
 * submitted, the questions marked, its documents.
 */
interface Reopened {
  registration: ExistingRegistration;
  stored: Answers;
  marked: string[];
  documents: StoredDocuments;
}

/**
 * Stores a submission of `form` (the multipart upload, its files spooled and checked): a new
 * registration, or the changes a change request asked for on the user's registration. A
 * repeated identical first submission stores nothing twice (`repeated`).
 */
export async function submitRegistration(
  app: FastifyInstance,
  submitter: Submitter,
  parts: FormParts,
  form: Form,
): Promise<{ registrationId: string; repeated: boolean }> {
  const userId = submitter.row.id;
  const formId = parts.compiled.id;
  const outcome = await auditingChangeRefusals(
    app.db,
    { userId, formId, via: 'resubmission' },
    () =>
      withTransaction(app.db, async (db): Promise<Stored> => {
        await lockUser(db, userId);
        const existing = await findRegistrationOfUser(db, userId, true);
        const reopened =
          existing?.status === 'changes_requested'
            ? await reopenedRegistration(app, db, parts, existing)
            : null;
        if (!existing && submitter.row.organization_id) {
          throw new ClientError(409, 'You have already registered.');
        }
        const application = await findApplication(db, userId, formId, { forUpdate: true });
        if (existing && !reopened && application?.status === 'changes_requested') {
          // Decided while the applicant made the changes.
          throw refusal(
            409,
            'changes_locked',
            'Your registration is no longer waiting for changes. Please reload the page.',
          );
        }
        if (application) await attachHeldFiles(db, application, parts, form);
        if (reopened) await keepSignedAgreements(app, parts, form, reopened.documents);
        const carried = carriedDocuments(parts, form, reopened);
        const answers = readAnswers(parts, form, submitter.row.email, carried);
        await dropHiddenFiles(app, parts, answers, form);
        checkFilesMatchAnswers(parts, answers, {
          has: (part) =>
            form.files.has(part) || carried.has(part) || !!reopened?.documents.has(part),
        });
        if (reopened) checkChangeScope(parts, form, reopened, answers);
        // The serializer notes where the sensitive answers go, for sealing (registrationSealing.ts).
        const payloadTrace = sensitivePayloadTrace(parts.compiled, answers);
        const payload = payloadOrRefusal(parts.compiled, answers, payloadTrace);
        const submissionHash = keyedSubmissionHash(
          app.fieldKeys,
          canonicalJson({ formId, answers }),
        );
        // A registration already submitted: a repeated identical submission, or a refusal.
        if (existing && !reopened) return { existing, submissionHash };
        return {
          registrationId: await store(app, db, {
            submitter,
            parts,
            form,
            answers,
            payload: payload.parts,
            payloadTrace,
            submissionHash,
            reopened,
            application,
          }),
        };
      }),
  );
  if ('existing' in outcome) {
    await discardForm(app.config.dataDir, form);
    if (outcome.existing.submissionHash !== outcome.submissionHash) {
      throw new ClientError(
        409,
        'You have already submitted a registration. It is awaiting review.',
      );
    }
    await recordAuditEvent(app.db, {
      action: 'registration.resubmitted',
      actorUserId: userId,
      registrationId: outcome.existing.id,
      detail: { formId },
    });
    return { registrationId: outcome.existing.id, repeated: true };
  }
  return { registrationId: outcome.registrationId, repeated: false };
}

/** What the transaction did: stored the registration, or met one already submitted. */
type Stored =
  { registrationId: string } | { existing: ExistingRegistration; submissionHash: string };

/** What `store` writes: the checked submission and what it answers (a reopened registration). */
interface Submission {
  submitter: Submitter;
  parts: FormParts;
  form: Form;
  answers: Answers;
  payload: Record<string, unknown>;
  payloadTrace: PayloadTrace;
  submissionHash: string;
  reopened: Reopened | null;
  application: ApplicationRow | null;
}

/** The registration written (in the caller's transaction, every lock held); its id. */
async function store(app: FastifyInstance, db: Queryable, submission: Submission) {
  const { submitter, parts, form, answers, reopened, application } = submission;
  const userId = submitter.row.id;
  const formId = parts.compiled.id;
  const registration = parts.registration;
  const detail = (key: keyof RegistrationAnnotation['userDetails']) =>
    answers[registration.userDetails[key]];
  // The agreements signed by this submission (on a resubmission, those not signed before).
  const signed = parts.documents.filter((document) => form.files.has(document.part));
  // ESIGN 7001(c): signatures stand on the applicant's consent to the version published now.
  const consent =
    signed.length > 0
      ? await findEsignConsent(db, userId, currentEsignConsentVersion().sha256)
      : null;
  if (signed.length > 0 && !consent) {
    throw new ClientError(409, esignConsentWording().missingMessage);
  }

  let registrationId: string;
  let organizationId: string | null = null;
  if (reopened) {
    registrationId = reopened.registration.id;
    await ensureFirstVersion(db, app.fieldKeys, parts.compiled, registrationId);
  } else {
    registrationId = crypto.randomUUID();
    organizationId = await insertOrganization(db, {
      name: registration.organizationName
        .map((key) => String(answers[key] ?? '').trim())
        .filter(Boolean)
        .join(' '),
      kind: registration.organizationKind,
    });
  }
  // Sensitive answers are stored sealed (encrypted at rest), bound to the registration's id.
  const sealed = sealRegistration(app.fieldKeys, {
    registrationId,
    form: parts.compiled,
    answers,
    payload: submission.payload,
    payloadTrace: submission.payloadTrace,
    personsKey: registration.persons,
  });
  const row = {
    id: registrationId,
    schemaHash: parts.compiled.hash,
    answers: sealed.answers,
    payload: sealed.payload,
    submissionHash: submission.submissionHash,
  };
  if (reopened) {
    await updateResubmittedRegistration(db, row);
    await deleteRegistrationPersons(db, registrationId);
  } else {
    const inserted = await insertRegistration(db, {
      ...row,
      userId,
      organizationId: organizationId!,
      formId,
      ip: submitter.ip,
    });
    if (!inserted) throw new Error('registration insert raced despite the row lock');
  }
  await storePersons(db, parts, answers, registrationId, sealed.persons);
  await storeDocuments(db, parts, answers, form, registrationId, reopened);
  const version = await insertRegistrationVersion(db, app.fieldKeys, {
    registrationId,
    form: parts.compiled,
    schemaHash: parts.compiled.hash,
    answers,
  });
  await recordStatusChange(db, {
    registrationId,
    status: reopened ? 'resubmitted' : 'submitted',
    changedBy: userId,
    actor: 'applicant',
  });
  // What a court or auditor asks of each agreement signed (hashes of the bytes just stored),
  // with when it was signed (the application's record of the press) and when submitted.
  if (consent) {
    await recordSignatureEvidence(
      db,
      {
        registrationId,
        userId,
        userEmail: submitter.row.email,
        ip: submitter.ip,
        userAgent: submitter.userAgent,
        signerName: [detail('firstName'), detail('lastName')].filter(Boolean).join(' ') || null,
        schemaHash: parts.compiled.hash,
        consent,
        signedAt: application?.agreementsSignedAt ?? {},
      },
      signed,
    );
  }
  if (organizationId) {
    await setRegistrantDetails(
      db,
      userId,
      {
        firstName: detail('firstName') as string,
        lastName: detail('lastName') as string,
        phoneNumber: detail('phoneNumber') as string,
        approved: false,
      },
      organizationId,
    );
  }
  if (application) await setApplicationStatus(db, application.id, 'submitted', null);
  // Last: the audit row holds the chain's head until the commit.
  await recordAuditEvent(db, {
    action: reopened ? 'registration.changes-made' : 'registration.submitted',
    actorUserId: userId,
    registrationId,
    detail: { formId, version, ...(application ? { applicationId: application.id } : {}) },
  });
  return registrationId;
}

/** The registration a change request reopened, as a resubmission meets it (under its lock). */
async function reopenedRegistration(
  app: FastifyInstance,
  db: Queryable,
  parts: FormParts,
  registration: ExistingRegistration,
): Promise<Reopened> {
  if (registration.formId !== parts.compiled.id) {
    throw new ClientError(
      409,
      `Your registration is on another form; please make the changes there.`,
    );
  }
  const row = (await findRegistrationForChanges(db, registration.id))!;
  return {
    registration,
    stored: openRegistrationAnswers(app.fieldKeys, registration.id, row.answers),
    marked: (row.changeRequest?.fields ?? []).map((field) => field.path),
    documents: await listRegistrationDocuments(db, registration.id),
  };
}

/**
 * The files of the user's application for the file answers the upload left out: stored already
 * (their content checked when uploaded), so the registration references the same stored bytes.
 * Read under the application's lock.
 */
async function attachHeldFiles(
  db: Queryable,
  application: ApplicationRow,
  parts: FormParts,
  form: Form,
): Promise<void> {
  const missing = parts.answerFiles.filter((part) => !form.files.has(part));
  if (missing.length === 0) return;
  for (const held of await listApplicationFiles(db, application.id)) {
    const part = fromPointer(held.pointer)[0]!;
    if (held.pointer !== toPointer([part]) || !missing.includes(part)) continue;
    form.files.set(part, {
      storageName: held.storageName,
      size: held.size,
      contentType: held.type,
      originalName: held.name,
    });
  }
}

/** Agreements stay as signed: their documents and evidence are the first submission's. */
async function keepSignedAgreements(
  app: FastifyInstance,
  parts: FormParts,
  form: Form,
  documents: StoredDocuments,
): Promise<void> {
  for (const document of parts.documents) {
    const sent = form.files.get(document.part);
    if (sent && documents.has(document.part)) {
      form.files.delete(document.part);
      await deleteStored(app.config.dataDir, sent.storageName);
    }
  }
}

/** A resubmission's file answers neither sent nor held by the application: the registration's. */
function carriedDocuments(
  parts: FormParts,
  form: Form,
  reopened: Reopened | null,
): Map<string, FileReference & { storageName: string }> {
  const carried = new Map<string, FileReference & { storageName: string }>();
  if (!reopened) return carried;
  for (const part of parts.answerFiles) {
    const document = reopened.documents.get(part);
    if (document && !form.files.has(part)) carried.set(part, document);
  }
  return carried;
}

/** The file answers a resubmission replaces: other bytes than the registration's documents. */
function replacedParts(parts: FormParts, form: Form, documents: StoredDocuments): string[] {
  return parts.answerFiles.filter((part) => {
    const file = form.files.get(part);
    return !!file && documents.get(part)?.storageName !== file.storageName;
  });
}

/**
 * The one rule of a change request, as the application's saves and uploads judge it: an answer
 * or file outside the questions asked for (and what their change makes appear or disappear)
 * that differs from the stored one is refused, naming the question.
 */
function checkChangeScope(
  parts: FormParts,
  form: Form,
  reopened: Reopened,
  answers: Answers,
): void {
  const outside = unrequestedChange(
    parts.compiled,
    reopened.stored,
    answers,
    reopened.marked,
    replacedParts(parts, form, reopened.documents).map((part) => toPointer([part])),
  );
  if (outside) throw new ChangeRefusedError(outside.pointer, unrequestedChangeMessage(outside));
}

/**
 * The registration's documents: every file of a first submission; on a resubmission the
 * replaced files (new bytes stored, an application's upload referenced), the documents of
 * answers now hidden removed, and agreements not signed before.
 */
async function storeDocuments(
  db: Queryable,
  parts: FormParts,
  answers: Answers,
  form: Form,
  registrationId: string,
  reopened: Reopened | null,
): Promise<void> {
  if (!reopened) {
    for (const [part, stored] of form.files) {
      await insertRegistrationDocument(db, registrationId, part, stored);
    }
    return;
  }
  const replaced = replacedParts(parts, form, reopened.documents);
  for (const part of parts.answerFiles) {
    const file = replaced.includes(part) ? form.files.get(part) : undefined;
    if (file || (reopened.documents.has(part) && !isPlainObject(answers[part]))) {
      await deleteRegistrationDocument(db, registrationId, part);
    }
    if (file) await insertRegistrationDocument(db, registrationId, part, file);
  }
  for (const document of parts.documents) {
    const signed = form.files.get(document.part);
    if (signed) await insertRegistrationDocument(db, registrationId, document.part, signed);
  }
}

/**
 * The answers of a submission as the server keeps them: decoded, shown, prefilled, validated.
 * `carried` are the stored files a resubmission keeps without sending them again.
 */
function readAnswers(
  parts: FormParts,
  form: Form,
  email: string,
  carried: ReadonlyMap<string, FileReference>,
): Answers {
  const { compiled } = parts;
  const fields = textFields(form, parts.textParts);
  if (fields.formId !== compiled.id) {
    throw new ClientError(400, `This submission is not ${parts.article} registration.`);
  }
  if (fields.schemaHash !== compiled.hash) {
    throw refusal(
      409,
      'schema_changed',
      'The registration form has changed since you opened it. Please reload the page and submit again.',
    );
  }
  let decoded: Answers;
  try {
    // Spaces at the ends of a text answer mean nothing (a pasted ' 10118 ' is 10118).
    decoded = trimAnswers(compiled, fromPayload(compiled, fields).answers);
  } catch {
    throw new ClientError(400, 'The registration could not be read. Please try again.');
  }
  // The stored file, not the browser's word, says what each file answer is.
  for (const [part, reference] of carried) {
    if (part in decoded && !form.files.has(part)) {
      decoded[part] = { name: reference.name, type: reference.type, size: reference.size };
    }
  }
  for (const [part, stored] of form.files) {
    if (part in decoded) {
      decoded[part] = {
        name: stored.originalName,
        type: stored.contentType,
        size: stored.size,
      } satisfies FileReference;
    }
  }
  // docs/decisions.md, Hidden answers: answers a condition hides are not answers; the signed-in
  // email is the user's.
  const answers = withReadOnlyPrefill(compiled, omitHiddenAnswers(compiled, decoded), { email });
  const { valid, errors } = validateAnswers(compiled, answers);
  if (!valid) {
    // An answer's several messages (its own and a rule's across answers) each on a line.
    const byPath = new Map<string, string[]>();
    for (const { path, message } of errors)
      byPath.set(path, [...(byPath.get(path) ?? []), message]);
    throw new ClientError(
      422,
      'Some answers need attention.',
      Object.fromEntries([...byPath].map(([path, messages]) => [path, messages.join('\n')])),
    );
  }
  return answers;
}

/**
 * The registration's affiliated persons as rows (`registration_persons`): their columns from the
 * schema's `x-person-column` annotations, each person's answers as sealed.
 */
async function storePersons(
  db: Queryable,
  parts: FormParts,
  answers: Answers,
  registrationId: string,
  sealedPersons: unknown[],
): Promise<void> {
  const key = parts.registration.persons;
  const persons = key ? answers[key] : undefined;
  const personItem = personItemSchema(parts.compiled.schema);
  if (!Array.isArray(persons) || !personItem) return;
  await insertRegistrationPersons(
    db,
    registrationId,
    persons.map((person: unknown, position) => ({
      columns: personColumnValues(personItem, parts.compiled.schema, person as Answers),
      stored: sealedPersons[position] ?? person,
    })),
  );
}

/** The payload of validated answers; a field it cannot send is a 422 naming that field. */
function payloadOrRefusal(form: CompiledForm, answers: Answers, trace: PayloadTrace) {
  try {
    return toPayloadJson(form, answers, undefined, undefined, trace);
  } catch (error) {
    if (error instanceof PayloadError) {
      throw new ClientError(422, error.message, { [error.pointer]: error.message });
    }
    throw error;
  }
}

/**
 * A file whose answer a condition hides (the authorized signer form of a signatory) is dropped
 * like the answer: deleted, never stored.
 */
async function dropHiddenFiles(
  app: FastifyInstance,
  parts: FormParts,
  answers: Answers,
  form: Form,
): Promise<void> {
  for (const part of parts.answerFiles) {
    const stored = form.files.get(part);
    if (stored && !isPlainObject(answers[part])) {
      form.files.delete(part);
      await deleteStored(app.config.dataDir, stored.storageName);
    }
  }
}

/**
 * A refused file (not a PDF, too large, empty) also as a per-field error on its answer, so the
 * form can show it beside the field; the storage module names the field by its prompt.
 */
export function withFieldError(error: unknown, parts: FormParts): unknown {
  if (!(error instanceof ClientError) || error.errors) return error;
  for (const [part, rule] of Object.entries(parts.fileRules)) {
    if (rule.label && error.message.includes(`for ${rule.label} `)) {
      const document = parts.documents.find((d) => d.part === part);
      const pointer = document ? document.pointer || `/${part}` : `/${part}`;
      return new ClientError(
        error.statusCode,
        error.message,
        { [pointer]: error.message },
        undefined,
        error.code,
      );
    }
  }
  return error;
}

/** The text parts as a record; a repeated part is refused (it would be ambiguous). */
function textFields(form: Form, names: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of names) {
    const values = form.all(name);
    if (values.length > 1) throw new ClientError(400, `The part ${name} was sent twice.`);
    if (values[0] !== undefined) fields[name] = values[0];
  }
  return fields;
}

/**
 * Every file answer has its bytes, every sent file is an answer, every agreement its document.
 * `files` are the parts present: sent, held, or kept from the stored registration.
 */
function checkFilesMatchAnswers(
  parts: FormParts,
  answers: Answers,
  files: { has(part: string): boolean },
): void {
  for (const part of parts.answerFiles) {
    const answered = isPlainObject(answers[part]);
    if (answered && !files.has(part)) {
      const label = parts.fileRules[part]?.label ?? part;
      throw new ClientError(400, `The file for ${label} is missing from the upload.`, {
        [`/${part}`]: `The file for ${label} is missing from the upload.`,
      });
    }
  }
  for (const document of parts.documents) {
    // A signature's document ('' pointer) is signed by submitting; an agreement's by its answer.
    const signed = document.pointer === '' || answers[document.pointer.slice(1)] === true;
    if (signed && !files.has(document.part)) {
      throw new ClientError(400, `The signed document ${document.title} is missing.`);
    }
  }
}
