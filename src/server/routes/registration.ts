import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { User } from '../../shared/api/auth';
import { access } from './contract';
import { canonicalJson } from '../../shared/forms/model/bundleForm';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import {
  fromPayload,
  signedDocuments,
  toPayloadJson,
  PayloadError,
} from '../../shared/forms/payload/payload';
import { omitHiddenAnswers, trimAnswers } from '../../shared/forms/walk/answers';
import { withReadOnlyPrefill } from '../../shared/forms/model/prefill';
import { allProperties, fromPointer, toPointer } from '../../shared/forms/walk/schemaWalk';
import {
  isPlainObject,
  type Answers,
  type RegistrationAnnotation,
} from '../../shared/forms/model/schemaTypes';
import type { FileReference } from '../../shared/forms/model/types';
import { validateAnswers } from '../../shared/forms/validation/validateAnswers';
import { userSchema } from '../auth/apiSchemas';
import { recordAuditEvent } from '../audit/recordAuditEvent';
import {
  deleteRegistrationDocument,
  findRegistrationOfUser,
  insertRegistration,
  insertRegistrationDocument,
  insertRegistrationPersons,
  listRegistrationDocuments,
  type ExistingRegistration,
} from '../db/registrations';
import { findApplication, listApplicationFiles, setApplicationStatus } from '../db/applications';
import { personColumnValues, personItemSchema } from '../../shared/forms/model/personColumns';
import { withTransaction, type Queryable } from '../db/transaction';
import {
  ensureFirstVersion,
  insertRegistrationVersion,
  listStatusChanges,
  recordStatusChange,
} from '../db/registrationVersions';
import {
  questionAt,
  unrequestedChange,
  unrequestedChangeMessage,
} from '../../shared/forms/walk/changeScope';
import type {
  ChangeRequest,
  RegistrationOverview,
  StatusEvent,
} from '../../shared/api/registration';
import type { StoredChangeRequest } from '../admin/review';
import { openRegistrationAnswers } from '../fieldEncryption/registrationSealing';
import { findUserRowById, toUser } from '../db/users';
import { ClientError } from '../errors';
import { submissionHash as keyedSubmissionHash } from '../fieldEncryption/keyRing';
import { sealRegistration } from '../fieldEncryption/registrationSealing';
import {
  currentEsignConsentVersion,
  esignConsentWording,
  findEsignConsent,
} from '../signatures/esignConsents';
import { recordSignatureEvidence } from '../signatures/signatureEvidence';
import { links, registrationReceivedMessage } from '../mail/templates';
import { discardForm, readMultipartForm, type FileRule } from '../storage/multipartForm';
import { deleteStored } from '../storage/uploads';

/** What a registration answers on success (and on a repeated identical submission). */
interface RegistrationResult {
  registrationId: string;
  user: User;
}

const resultSchema = {
  type: 'object',
  properties: { registrationId: { type: 'string' }, user: userSchema },
} as const;

/**
 * POST registration/<form-id> for every form whose schema declares `x-registration` (today
 * individual and business; a new registration type is a schema folder with that annotation): the
 * multipart prompt+value payload of
 * the form, one handler for both, driven by the form's annotations (`x-registration`: the new
 * organisation's kind and name, which answers become the user's details, the affiliated persons).
 * Files stream to storage and are checked by content; answers a condition hides are dropped and
 * read-only prefilled ones (the email) set from the session; the answers are validated again
 * with the same schema the browser used; the registration, its persons, its documents and the
 * user's Administrator role on the new organisation are stored in one transaction. A repeated
 * identical submission stores nothing twice; a failed one stores nothing.
 */
export async function registerRegistrationRoutes(app: FastifyInstance): Promise<void> {
  registerChangeRoutes(app);
  for (const compiled of app.forms.values()) {
    if (!compiled.registration) continue;
    const parts = formParts(compiled, compiled.registration);
    app.post(
      `/registration/${compiled.id}`,
      {
        schema: {
          ...access.signedIn,
          summary: `Submits ${parts.article} registration (form data)`,
          multipart: describeParts(parts),
          response: { 200: resultSchema, 201: resultSchema },
        },
      },
      async (request, reply) => {
        const userId = await request.requireUserId();
        const row = await findUserRowById(app.db, userId);
        if (!row) throw new ClientError(401, 'Please sign in to view that content.');
        const form = await readMultipartForm(request, {
          dataDir: app.config.dataDir,
          files: parts.fileRules,
        }).catch((error: unknown) => {
          throw withFieldError(error, parts);
        });
        try {
          // A file the applicant's application holds need not travel again (checked at upload).
          await attachHeldFiles(app.db, userId, parts, form);
          const outcome = await register(
            app,
            { ip: request.ip, userAgent: request.headers['user-agent'] },
            parts,
            row,
            form,
          );
          const user = toUser((await findUserRowById(app.db, userId))!);
          if (!outcome.repeated) {
            // DECISIONS: the applicant is told by email that the registration was received.
            await app.mailer
              .send(
                registrationReceivedMessage(
                  row.email,
                  user.details?.firstName || null,
                  links.home(app.config.publicUrl),
                ),
              )
              .catch((error: unknown) => request.log.error({ err: error }, 'receipt email failed'));
          }
          return reply
            .code(outcome.repeated ? 200 : 201)
            .send({ registrationId: outcome.registrationId, user } satisfies RegistrationResult);
        } catch (error) {
          await discardForm(app.config.dataDir, form);
          throw error;
        }
      },
    );
  }
}

/** A stored change request with each question's prompt as the form asks it now. */
function describedChangeRequest(
  form: CompiledForm | undefined,
  answers: Answers,
  stored: StoredChangeRequest,
): ChangeRequest {
  return {
    note: stored.note,
    fields: stored.fields.map((field) => ({
      path: field.path,
      prompt: (form && questionAt(form, answers, field.path)?.prompt) ?? field.path,
      note: field.note,
    })),
  };
}

/**
 * The applicant's side of a review (issue 17): GET registration, where their registration stands
 * (the statuses it took, the changes asked for by prompt). The form opens in change mode from the
 * application (GET applications/<formId>), which the change request made of the registration.
 */
function registerChangeRoutes(app: FastifyInstance): void {
  const ownRegistration = async (userId: string) => {
    const result = await app.db.query<{
      id: string;
      form_id: string;
      status: StatusEvent['status'];
      answers: unknown;
      change_request: StoredChangeRequest | null;
    }>(
      'select id, form_id, status, answers, change_request from registrations where user_id = $1',
      [userId],
    );
    return result.rows[0] ?? null;
  };

  app.get('/registration', async (request): Promise<RegistrationOverview> => {
    const registration = await ownRegistration(await request.requireUserId());
    if (!registration) return { registration: null };
    const history = await listStatusChanges(app.db, registration.id);
    let changeRequest: ChangeRequest | null = null;
    if (registration.status === 'changes_requested' && registration.change_request) {
      const answers = openRegistrationAnswers(app.fieldKeys, registration.id, registration.answers);
      const form = app.forms.get(registration.form_id);
      changeRequest = describedChangeRequest(form, answers, registration.change_request);
    }
    return {
      registration: {
        registrationId: registration.id,
        formId: registration.form_id,
        status: registration.status,
        history: history.map((change) => ({
          status: change.status,
          at: change.changedAt,
          by: change.actor,
        })),
        changeRequest,
      },
    };
  });
}

type UserRow = NonNullable<Awaited<ReturnType<typeof findUserRowById>>>;
type Form = Awaited<ReturnType<typeof readMultipartForm>>;

/**
 * The answers of a submission as the server keeps them: decoded, shown, prefilled, validated.
 * `carried` are the stored files a resubmission keeps without sending them again.
 */
function readAnswers(
  parts: FormParts,
  form: Form,
  email: string,
  carried: ReadonlyMap<string, FileReference> = new Map(),
): Answers {
  const { compiled } = parts;
  const fields = textFields(form, parts.textParts);
  if (fields.formId !== compiled.id) {
    throw new ClientError(400, `This submission is not ${parts.article} registration.`);
  }
  if (fields.schemaHash !== compiled.hash) {
    throw new ClientError(
      409,
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
  // DECISIONS: answers a condition hides are not answers; the signed-in email is the user's.
  const answers = withReadOnlyPrefill(compiled, omitHiddenAnswers(compiled, decoded), { email });
  const { valid, errors } = validateAnswers(compiled, answers);
  if (!valid) {
    throw new ClientError(
      422,
      'Some answers need attention.',
      Object.fromEntries(errors.map((error) => [error.path, error.message])),
    );
  }
  return answers;
}

async function register(
  app: FastifyInstance,
  { ip, userAgent }: { ip: string; userAgent: string | undefined },
  parts: FormParts,
  row: UserRow,
  form: Form,
): Promise<{ registrationId: string; repeated: boolean }> {
  const userId = row.id;
  const formId = parts.compiled.id;
  // Changes requested: this submission carries them, to the same registration.
  const current = await findRegistrationOfUser(app.db, userId);
  if (current?.status === 'changes_requested') {
    return resubmit(app, parts, row, form, current);
  }
  const answers = readAnswers(parts, form, row.email);
  await dropHiddenFiles(app, parts, answers, form);
  checkFilesMatchAnswers(parts, answers, form.files);
  const payload = payloadOrRefusal(parts.compiled, answers);
  const signed = parts.documents.filter((document) => form.files.has(document.part));
  // ESIGN 7001(c): signatures stand on the applicant's consent to the version published now.
  const consent =
    signed.length > 0
      ? await findEsignConsent(app.db, userId, currentEsignConsentVersion().sha256)
      : null;
  if (signed.length > 0 && !consent) {
    throw new ClientError(409, esignConsentWording().missingMessage);
  }
  const submissionHash = keyedSubmissionHash(app.fieldKeys, canonicalJson({ formId, answers }));
  const registration = parts.registration;
  const detail = (key: keyof RegistrationAnnotation['userDetails']) =>
    answers[registration.userDetails[key]];

  const outcome = await withTransaction(app.db, async (db) => {
    // Serialise submissions of one user: a double click must not create two organisations.
    await db.query('select 1 from users where id = $1 for update', [userId]);
    const existing = await findRegistrationOfUser(db, userId);
    if (existing?.status === 'changes_requested') {
      throw new ClientError(
        409,
        'Changes were just requested on your registration. Please reload the page.',
      );
    }
    if (existing) return { existing };
    if (row.organization_id) {
      throw new ClientError(409, 'You have already registered.');
    }
    const name = registration.organizationName
      .map((key) => String(answers[key] ?? '').trim())
      .filter(Boolean)
      .join(' ');
    const organization = await db.query<{ id: string }>(
      `insert into organizations (name, clearing_org_id, kind)
       values ($1, next_clearing_org_id(), $2)
       returning id`,
      [name, registration.organizationKind],
    );
    const organizationId = organization.rows[0]!.id;
    // Sensitive answers are stored sealed (encrypted at rest), bound to this registration's id.
    const sealed = sealRegistration(app.fieldKeys, {
      registrationId: crypto.randomUUID(),
      form: parts.compiled,
      answers,
      payload: payload.parts,
      personsKey: registration.persons,
    });
    const registrationId = await insertRegistration(db, {
      id: sealed.registrationId,
      userId,
      organizationId,
      formId,
      schemaHash: parts.compiled.hash,
      answers: sealed.answers,
      payload: sealed.payload,
      submissionHash,
      ip,
    });
    if (!registrationId) throw new Error('registration insert raced despite the row lock');
    await storePersons(db, parts, answers, registrationId, sealed.persons);
    for (const [part, stored] of form.files) {
      await insertRegistrationDocument(db, registrationId, part, stored);
    }
    await insertRegistrationVersion(db, app.fieldKeys, {
      registrationId,
      form: parts.compiled,
      schemaHash: parts.compiled.hash,
      answers,
    });
    await recordStatusChange(db, {
      registrationId,
      status: 'pending',
      changedBy: userId,
      actor: 'applicant',
    });
    // What a court or auditor asks of each agreement signed (hashes of the bytes just stored);
    // a consent is at hand whenever a document is signed (checked above).
    if (consent) {
      await recordSignatureEvidence(
        db,
        {
          registrationId,
          userId,
          userEmail: row.email,
          ip,
          userAgent,
          signerName: [detail('firstName'), detail('lastName')].filter(Boolean).join(' ') || null,
          schemaHash: parts.compiled.hash,
          consent,
        },
        signed,
      );
    }
    // The person who registers holds the Administrator role on the new organisation (spec §1).
    await db.query(
      `update users set details = $2, organization_id = $3, roles = '{Administrator}'
        where id = $1`,
      [
        userId,
        {
          firstName: detail('firstName'),
          lastName: detail('lastName'),
          phoneNumber: detail('phoneNumber'),
          approved: false,
        },
        organizationId,
      ],
    );
    const application = await markApplicationSubmitted(db, userId, formId);
    await recordAuditEvent(db, {
      action: 'registration.submitted',
      actorUserId: userId,
      registrationId,
      detail: { formId },
    });
    if (application) {
      await recordAuditEvent(db, {
        action: 'application.submitted',
        actorUserId: userId,
        registrationId,
        detail: { formId, applicationId: application },
      });
    }
    return { registrationId };
  });

  if ('existing' in outcome && outcome.existing) {
    await discardForm(app.config.dataDir, form);
    if (outcome.existing.submissionHash !== submissionHash) {
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
  return { registrationId: outcome.registrationId!, repeated: false };
}

/**
 * A resubmission (issue 17): the registration waits for changes staff asked for, and this
 * submission makes them. The same reading and validation as the first submission; file answers
 * not sent again keep their stored documents (so do the signed agreements, whose evidence stays);
 * an answer or file outside the questions asked for (and what their change makes appear or
 * disappear) that differs from the stored one is refused, naming the question. The registration
 * (same id) takes the answers, a new version is stored with the schema hash, and it waits for
 * review again (`resubmitted`).
 */
async function resubmit(
  app: FastifyInstance,
  parts: FormParts,
  row: UserRow,
  form: Form,
  current: ExistingRegistration,
): Promise<{ registrationId: string; repeated: boolean }> {
  const userId = row.id;
  const registrationId = current.id;
  const formId = parts.compiled.id;
  if (current.formId !== formId) {
    throw new ClientError(
      409,
      `Your registration is on another form; please make the changes there.`,
    );
  }
  const storedRow = await app.db.query<{
    answers: unknown;
    change_request: StoredChangeRequest | null;
  }>('select answers, change_request from registrations where id = $1', [registrationId]);
  const stored = openRegistrationAnswers(app.fieldKeys, registrationId, storedRow.rows[0]!.answers);
  const marked = (storedRow.rows[0]!.change_request?.fields ?? []).map((field) => field.path);
  const documents = await listRegistrationDocuments(app.db, registrationId);

  // Agreements stay as signed: their documents and evidence are the first submission's.
  for (const document of parts.documents) {
    const sent = form.files.get(document.part);
    if (sent && documents.has(document.part)) {
      form.files.delete(document.part);
      await deleteStored(app.config.dataDir, sent.storageName);
    }
  }
  // Files not sent again: the application's (uploaded when chosen in change mode), else the
  // registration's as submitted.
  // Files neither sent nor held by the application (attachHeldFiles) keep the registration's.
  const application = await findApplication(app.db, userId, formId);
  const carried = new Map<string, FileReference & { storageName: string }>();
  for (const part of parts.answerFiles) {
    const document = documents.get(part);
    if (document && !form.files.has(part)) carried.set(part, document);
  }
  // Files other than the submitted ones (sent, or uploaded to the application) replace them, and
  // must have been asked for; the application's copies of the submitted ones change nothing.
  const replaced = parts.answerFiles.filter((part) => {
    const file = form.files.get(part);
    return !!file && documents.get(part)?.storageName !== file.storageName;
  });
  const answers = readAnswers(parts, form, row.email, carried);
  await dropHiddenFiles(app, parts, answers, form);
  const present = new Set([...form.files.keys(), ...carried.keys(), ...documents.keys()]);
  checkFilesMatchAnswers(parts, answers, present);
  // The one rule of a change request, as the application's saves and uploads judge it.
  const outside = unrequestedChange(
    parts.compiled,
    stored,
    answers,
    marked,
    replaced.map((part) => toPointer([part])),
  );
  if (outside) {
    const message = unrequestedChangeMessage(outside);
    throw new ClientError(409, message, { [outside.pointer]: message });
  }
  const payload = payloadOrRefusal(parts.compiled, answers);
  const submissionHash = keyedSubmissionHash(app.fieldKeys, canonicalJson({ formId, answers }));
  await withTransaction(app.db, async (db) => {
    await db.query('select 1 from users where id = $1 for update', [userId]);
    const locked = await findRegistrationOfUser(db, userId, true);
    if (locked?.id !== registrationId || locked.status !== 'changes_requested') {
      throw new ClientError(
        409,
        'Your registration is no longer waiting for changes. Please reload the page.',
      );
    }
    await ensureFirstVersion(db, app.fieldKeys, parts.compiled, registrationId);
    const sealed = sealRegistration(app.fieldKeys, {
      registrationId,
      form: parts.compiled,
      answers,
      payload: payload.parts,
      personsKey: parts.registration.persons,
    });
    await db.query(
      `update registrations
          set answers = $2, payload = $3, schema_hash = $4, submission_hash = $5,
              status = 'resubmitted', change_request = null
        where id = $1`,
      [
        registrationId,
        JSON.stringify(sealed.answers),
        JSON.stringify(sealed.payload),
        parts.compiled.hash,
        submissionHash,
      ],
    );
    await db.query('delete from registration_persons where registration_id = $1', [registrationId]);
    await storePersons(db, parts, answers, registrationId, sealed.persons);
    for (const part of parts.answerFiles) {
      const file = replaced.includes(part) ? form.files.get(part) : undefined;
      if (file || (documents.has(part) && !isPlainObject(answers[part]))) {
        await deleteRegistrationDocument(db, registrationId, part);
      }
      // New bytes are stored; an application's upload is referenced (its bytes are stored).
      if (file) await insertRegistrationDocument(db, registrationId, part, file);
    }
    for (const document of parts.documents) {
      const signed = form.files.get(document.part);
      if (signed) await insertRegistrationDocument(db, registrationId, document.part, signed);
    }
    const version = await insertRegistrationVersion(db, app.fieldKeys, {
      registrationId,
      form: parts.compiled,
      schemaHash: parts.compiled.hash,
      answers,
    });
    if (application) await setApplicationStatus(db, application.id, 'submitted', null);
    await recordStatusChange(db, {
      registrationId,
      status: 'resubmitted',
      changedBy: userId,
      actor: 'applicant',
    });
    await recordAuditEvent(db, {
      action: 'registration.changes-made',
      actorUserId: userId,
      registrationId,
      detail: { formId, version },
    });
  });
  return { registrationId, repeated: false };
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
function payloadOrRefusal(form: CompiledForm, answers: Answers) {
  try {
    return toPayloadJson(form, answers);
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
 * The files of the user's application for the file answers the upload left out: stored already
 * (their content checked when uploaded), so the registration references the same stored bytes.
 */
async function attachHeldFiles(
  db: Queryable,
  userId: string,
  parts: FormParts,
  form: Form,
): Promise<void> {
  const missing = parts.answerFiles.filter((part) => !form.files.has(part));
  if (missing.length === 0) return;
  const application = await findApplication(db, userId, parts.compiled.id);
  if (!application) return;
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

/** The user's application of the form is now submitted; its id, or null when there is none. */
async function markApplicationSubmitted(
  db: Queryable,
  userId: string,
  formId: string,
): Promise<string | null> {
  const application = await findApplication(db, userId, formId, { forUpdate: true });
  if (!application) return null;
  await setApplicationStatus(db, application.id, 'submitted');
  return application.id;
}

/** What a form's multipart payload may carry, read from its schema once at start. */
/** A registration's form-data parts, as the API's document describes them. */
function describeParts(parts: FormParts): object {
  const text = parts.textParts.map((name) => [
    name,
    {
      type: 'string',
      description: ['formId', 'schemaHash'].includes(name)
        ? `The form's ${name}.`
        : 'A payload section: JSON of its prompts and answers.',
    },
  ]);
  const files = Object.entries(parts.fileRules).map(([name, rule]) => [
    name,
    {
      type: 'string',
      contentMediaType: rule.accept === 'pdf' ? 'application/pdf' : 'application/octet-stream',
      description: rule.label ?? name,
    },
  ]);
  return {
    type: 'object',
    properties: Object.fromEntries([...text, ...files]),
    required: ['formId', 'schemaHash'],
  };
}

interface FormParts {
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

function formParts(form: CompiledForm, registration: RegistrationAnnotation): FormParts {
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
  const sectionParts = new Set(Object.values(sections).map((pointer) => pointer.split('/')[1]!));
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

/**
 * A refused file (not a PDF, too large, empty) also as a per-field error on its answer, so the
 * form can show it beside the field; the storage module names the field by its prompt.
 */
function withFieldError(error: unknown, parts: FormParts): unknown {
  if (!(error instanceof ClientError) || error.errors) return error;
  for (const [part, rule] of Object.entries(parts.fileRules)) {
    if (rule.label && error.message.includes(`for ${rule.label} `)) {
      const document = parts.documents.find((d) => d.part === part);
      const pointer = document ? document.pointer || `/${part}` : `/${part}`;
      return new ClientError(error.statusCode, error.message, { [pointer]: error.message });
    }
  }
  return error;
}

/** The text parts as a record; a repeated part is refused (it would be ambiguous). */
function textFields(
  form: Awaited<ReturnType<typeof readMultipartForm>>,
  names: string[],
): Record<string, string> {
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
 * `files` are the parts present: sent, or kept from the stored registration (a resubmission).
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
