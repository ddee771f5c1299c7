import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { User } from '../../shared/api/auth';
import { canonicalJson } from '../../shared/forms/bundleForm';
import { loadForm } from '../../shared/forms/loadForm';
import {
  fromPayload,
  signedDocuments,
  toPayloadJson,
  PayloadError,
} from '../../shared/forms/payload';
import { allProperties } from '../../shared/forms/schemaWalk';
import { isPlainObject, type Answers } from '../../shared/forms/schemaTypes';
import type { FileReference, FormId } from '../../shared/forms/types';
import { validateAnswers } from '../../shared/forms/validateAnswers';
import { compileFormValidators } from '../../shared/forms/compile';
import { formValidator } from '../../shared/forms/validators';
import { userSchema } from '../auth/apiSchemas';
import { audit } from '../db/audit';
import {
  findRegistrationOfUser,
  insertRegistration,
  insertRegistrationDocument,
} from '../db/registrations';
import { withTransaction } from '../db/transaction';
import { findUserRowById, toUser } from '../db/users';
import { ClientError } from '../errors';
import { links, registrationReceivedMessage } from '../mail/templates';
import { discardForm, readMultipartForm, type FileRule } from '../storage/multipartForm';

/** What a registration answers on success (and on a repeated identical submission). */
export interface RegistrationResult {
  registrationId: string;
  user: User;
}

/**
 * POST registration/individual: the multipart prompt+value payload of the individual form.
 * Files stream to storage and are checked by content; the answers are validated again with the
 * same schema the browser used; the registration, its documents and the user's new organisation
 * are stored in one transaction. A repeated identical submission stores nothing twice.
 */
export async function registerRegistrationRoutes(app: FastifyInstance): Promise<void> {
  ensureValidator('individual');
  const parts = formParts('individual');
  app.post(
    '/registration/individual',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            properties: { registrationId: { type: 'string' }, user: userSchema },
          },
          201: {
            type: 'object',
            properties: { registrationId: { type: 'string' }, user: userSchema },
          },
        },
      },
    },
    async (request, reply): Promise<RegistrationResult> => {
      const userId = await request.requireUserId();
      const formId: FormId = 'individual';
      const row = await findUserRowById(app.db, userId);
      if (!row) throw new ClientError(401, 'Please sign in to view that content.');

      const form = await readMultipartForm(request, {
        dataDir: app.config.dataDir,
        files: parts.fileRules,
      });
      try {
        const fields = textFields(form, parts.textParts);
        if (fields.formId !== formId) {
          throw new ClientError(400, 'This submission is not an individual registration.');
        }
        if (fields.schemaHash !== loadForm(formId).hash) {
          throw new ClientError(
            409,
            'The registration form has changed since you opened it. Please reload the page and submit again.',
          );
        }
        let answers: Answers;
        try {
          answers = fromPayload(formId, fields).answers;
        } catch {
          throw new ClientError(400, 'The registration could not be read. Please try again.');
        }
        // The stored file, not the browser's word, says what each file answer is.
        for (const [part, stored] of form.files) {
          if (part in answers) {
            answers[part] = {
              name: stored.originalName,
              type: stored.contentType,
              size: stored.size,
            } satisfies FileReference;
          }
        }
        const { valid, errors } = validateAnswers(formId, answers);
        if (!valid) {
          throw new ClientError(
            422,
            'Some answers need attention.',
            Object.fromEntries(errors.map((error) => [error.path, error.message])),
          );
        }
        checkFilesMatchAnswers(parts, answers, form.files);
        let payload;
        try {
          payload = toPayloadJson(formId, answers);
        } catch (error) {
          if (error instanceof PayloadError) {
            throw new ClientError(422, error.message, { [error.pointer]: error.message });
          }
          throw error;
        }
        const submissionHash = crypto
          .createHash('sha256')
          .update(canonicalJson({ formId, answers }))
          .digest('hex');

        const outcome = await withTransaction(app.db, async (db) => {
          // Serialise submissions of one user: a double click must not create two organisations.
          await db.query('select 1 from users where id = $1 for update', [userId]);
          const existing = await findRegistrationOfUser(db, userId);
          if (existing) return { existing };
          if (row.organization_id) {
            throw new ClientError(409, 'You have already registered.');
          }
          const name = `${String(answers.firstName)} ${String(answers.lastName)}`;
          const organization = await db.query<{ id: string }>(
            `insert into organizations (name, clearing_org_id, kind)
             values ($1, next_clearing_org_id(), 'individual')
             returning id`,
            [name],
          );
          const organizationId = organization.rows[0]!.id;
          const registrationId = await insertRegistration(db, {
            userId,
            organizationId,
            formId,
            schemaHash: loadForm(formId).hash,
            answers,
            payload: payload.parts,
            submissionHash,
            ip: request.ip,
          });
          if (!registrationId) throw new Error('registration insert raced despite the row lock');
          for (const [part, stored] of form.files) {
            await insertRegistrationDocument(db, registrationId, part, stored);
          }
          await db.query(
            `update users set details = $2, organization_id = $3, roles = '{Administrator}'
              where id = $1`,
            [
              userId,
              {
                firstName: answers.firstName,
                lastName: answers.lastName,
                phoneNumber: answers.primaryPhoneNumber,
                approved: false,
              },
              organizationId,
            ],
          );
          await audit(db, {
            action: 'registration.submitted',
            actorUserId: userId,
            detail: { formId, registrationId },
          });
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
          await audit(app.db, {
            action: 'registration.resubmitted',
            actorUserId: userId,
            detail: { formId, registrationId: outcome.existing.id },
          });
          const user = await findUserRowById(app.db, userId);
          return reply.code(200).send({ registrationId: outcome.existing.id, user: toUser(user!) });
        }
        // DECISIONS: the applicant is told by email that the registration was received.
        await app.mailer
          .send(
            registrationReceivedMessage(
              row.email,
              typeof answers.firstName === 'string' ? answers.firstName : null,
              links.home(app.config.publicUrl),
            ),
          )
          .catch((error: unknown) => request.log.error({ err: error }, 'receipt email failed'));
        const user = await findUserRowById(app.db, userId);
        return reply
          .code(201)
          .send({ registrationId: outcome.registrationId!, user: toUser(user!) });
      } catch (error) {
        await discardForm(app.config.dataDir, form);
        throw error;
      }
    },
  );
}

/** What a form's multipart payload may carry, read from its schema once at start. */
interface FormParts {
  /** Every file part: the file answers and the signed documents. */
  fileRules: Record<string, FileRule>;
  /** The file answers' parts (`photoId`). */
  answerFiles: string[];
  documents: ReturnType<typeof signedDocuments>;
  /** The text parts: `formId`, `schemaHash` and the JSON sections. */
  textParts: string[];
}

function formParts(formId: FormId): FormParts {
  const form = loadForm(formId);
  const fileRules: Record<string, FileRule> = {};
  for (const [key, schema] of Object.entries(allProperties(form.schema, form.schema))) {
    const kind = schema['x-file'];
    if (kind === 'image' || kind === 'pdf') fileRules[key] = { accept: kind, label: key };
  }
  const answerFiles = Object.keys(fileRules);
  const documents = signedDocuments(formId);
  for (const document of documents) {
    fileRules[document.part] = { accept: 'pdf', label: document.title };
  }
  const sections = form.schema['x-sections'] ?? {};
  const sectionParts = new Set(Object.values(sections).map((pointer) => pointer.split('/')[1]!));
  return {
    fileRules,
    answerFiles,
    documents,
    textParts: ['formId', 'schemaHash', ...sectionParts],
  };
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

/** Every file answer has its bytes, every sent file is an answer, every agreement its document. */
function checkFilesMatchAnswers(
  parts: FormParts,
  answers: Answers,
  files: Map<string, unknown>,
): void {
  for (const part of parts.answerFiles) {
    const answered = isPlainObject(answers[part]);
    if (answered && !files.has(part)) {
      throw new ClientError(400, `The file for ${part} is missing from the upload.`);
    }
    if (!answered && files.has(part)) {
      throw new ClientError(400, `The file ${part} does not belong to any answer.`);
    }
  }
  for (const document of parts.documents) {
    if (answers[document.pointer.slice(1)] === true && !files.has(document.part)) {
      throw new ClientError(400, `The signed document ${document.title} is missing.`);
    }
  }
}

/** Compiles a form's validator once per process (Node compiles at start; the browser never does). */
function ensureValidator(formId: FormId): void {
  try {
    formValidator(formId);
  } catch {
    compileFormValidators([formId]);
  }
}
