import type { FastifyInstance } from 'fastify';
import { userSchema, type User } from '../../shared/api/auth';
import { access, refused } from './contract';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import type { Answers } from '../../shared/forms/model/schemaTypes';
import { findOwnRegistration, type StoredChangeRequest } from '../db/registrations';
import { listStatusChanges } from '../db/registrationVersions';
import { questionAt } from '../../shared/forms/walk/changeScope';
import { sectionsOf } from '../../shared/forms/walk/schemaWalk';
import { fromPointer } from '../../shared/forms/model/pointer';
import type { ChangeRequest, RegistrationOverview } from '../../shared/api/registration';
import { openRegistrationAnswers } from '../fieldEncryption/registrationSealing';
import { findUserRowById, toUser } from '../db/users';
import { ClientError } from '../errors';
import { links, registrationReceivedMessage } from '../mail/templates';
import {
  formParts,
  submitRegistration,
  withFieldError,
  type FormParts,
} from '../registration/submitRegistration';
import { discardForm, readMultipartForm, registerMultipartReader } from '../storage/multipartForm';

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
  await registerMultipartReader(app);
  registerChangeRoutes(app);
  for (const compiled of app.forms.values()) {
    if (!compiled.registration) continue;
    const parts = formParts(compiled, compiled.registration);
    app.post(
      `/registration/${compiled.id}`,
      {
        schema: {
          ...access.signedIn,
          operationId: `submit${pascalCase(compiled.id)}Registration`,
          summary: `Submits ${parts.article} registration (form data)`,
          description:
            `The answers to the form \`GET /exchange/api/web/forms/${compiled.id}\` serves, ` +
            'validated against its `schema` as the portal validates them (422 with `errors` by ' +
            'JSON pointer when some need attention). `schemaHash` must be the served ' +
            "form's (409 once the wording has changed); each text part is a section of the " +
            'payload, `{key: {prompt, value}}`; each file part is a file question of its `uploads` ' +
            "or a signed document of its `agreements` (the application's own files need not " +
            'travel again).',
          multipart: describeParts(parts),
          response: {
            200: resultSchema,
            201: resultSchema,
            409: refused(
              '`conflict`: already registered, or the e-sign consent is missing; ' +
                '`schema_changed`: the form changed since it was fetched; `changes_locked`: ' +
                'no longer waiting for changes; `change_not_requested`: an answer the change ' +
                'request did not ask for',
            ),
            422: refused('`validation_failed`: answers need attention; `errors` names each'),
          },
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
          const outcome = await submitRegistration(
            app,
            { row, ip: request.ip, userAgent: request.headers['user-agent'] },
            parts,
            form,
          );
          const user = toUser((await findUserRowById(app.db, userId))!);
          if (!outcome.repeated) {
            // docs/decisions.md, Applicants and reviewers: the applicant is told by email that the
            // registration was received.
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
  app.get('/registration', async (request): Promise<RegistrationOverview> => {
    const registration = await findOwnRegistration(app.db, await request.requireUserId());
    if (!registration) return { registration: null };
    const history = await listStatusChanges(app.db, registration.id);
    let changeRequest: ChangeRequest | null = null;
    if (registration.status === 'changes_requested' && registration.changeRequest) {
      const answers = openRegistrationAnswers(app.fieldKeys, registration.id, registration.answers);
      const form = app.forms.get(registration.formId);
      changeRequest = describedChangeRequest(form, answers, registration.changeRequest);
    }
    return {
      registration: {
        registrationId: registration.id,
        formId: registration.formId,
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

/**
 * One answer of a payload section as sent (src/shared/forms/payload/payload.ts builds it; docs/api.md
 * says how): its key is the question's key in the form's schema.
 */
const payloadEntrySchema = {
  type: 'object',
  properties: {
    prompt: {
      type: 'string',
      description:
        "The question's wording as the form served it (its `title`); a list's item: the item's " +
        'name and position (`Affiliated person 2`).',
    },
    value: {
      description:
        'The answer (after `x-send-as`: a US date as `yyyy-MM-dd`). An object question: an object ' +
        'of entries by key; a list of records: a list of entries `{prompt, value}`, each value ' +
        "an object of the item's entries (grouped by `x-section`); a file: its reference " +
        '`{name, type, size}`; a signature: the signer’s name.',
    },
    label: { description: "The chosen option's wording (or the list of them)." },
    variant: { type: 'string', description: "The chosen option's `x-variants` value." },
    part: { type: 'string', description: 'A file answer: the form-data part carrying its bytes.' },
    document: {
      type: 'object',
      properties: { url: { type: 'string' }, part: { type: 'string' } },
      description: 'An agreement: the PDF agreed to (`url`) and the part carrying it signed.',
    },
  },
  required: ['prompt', 'value'],
} as const;

/**
 * A payload part: JSON text holding the form's sections (`x-sections`) placed at their pointers
 * under it (a part may hold several, and an object around them: `details` of the individual
 * form). A section is an object of its answers' entries; an object around sections holds them
 * alone.
 */
function payloadPart(form: CompiledForm, part: string): object {
  const sections = Object.values(sectionsOf(form.schema)).map((pointer) => fromPointer(pointer));
  const node = (keys: string[]): object => {
    const depth = keys.length;
    const children = [
      ...new Set(
        sections
          .filter((path) => path.length > depth && keys.every((key, i) => path[i] === key))
          .map((path) => path[depth]!),
      ),
    ];
    const isSection = sections.some(
      (path) => path.length === depth && keys.every((key, i) => path[i] === key),
    );
    return {
      type: 'object',
      ...(children.length > 0
        ? { properties: Object.fromEntries(children.map((key) => [key, node([...keys, key])])) }
        : {}),
      additionalProperties: isSection ? payloadEntrySchema : false,
    };
  };
  return {
    type: 'string',
    contentMediaType: 'application/json',
    contentSchema: node([part]),
    description:
      "Payload sections (the form's `x-sections`) as JSON: each answer of a section as " +
      '`{ "<key>": { "prompt", "value", … } }`, only the answers the form asks given its other ' +
      'answers, and `signature` where the section is signed. docs/api.md, "The submission’s ' +
      'parts", says how.',
  };
}

/** A registration's form-data parts, as the API's document describes them. */
function describeParts(parts: FormParts): object {
  const text = parts.textParts.map((name) => [
    name,
    ['formId', 'schemaHash'].includes(name)
      ? { type: 'string', description: `The form's ${name}.` }
      : payloadPart(parts.compiled, name),
  ]);
  const files = Object.entries(parts.fileRules).map(([name, rule]) => [
    name,
    // Raw bytes, not a JSON string (OpenAPI 3.1's binary part: its media type alone).
    {
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

/** A kebab-case form id as PascalCase (`commodity-pool` → `CommodityPool`), for operation ids. */
const pascalCase = (id: string): string =>
  id.replace(/(^|-)([a-z0-9])/g, (_match, _dash: string, letter: string) => letter.toUpperCase());
