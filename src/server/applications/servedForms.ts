/**
 * The registration forms as the API serves them (issue 40 §1, `routes/forms.ts`): the compiled
 * form a partner draws and validates against, the same the portal's pages and this server use
 * (bundled: every `$ref` local), with where its files go and what they take, the documents it
 * signs with their SHA-256, and its `schemaHash`. Each form's answer is kept encoded with its
 * ETag and made again only when what it says changes (a published document replaced).
 */
import type { FastifyInstance } from 'fastify';
import type { FormDocument, FormSummary } from '../../shared/api/forms';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import { fromPointer } from '../../shared/forms/model/pointer';
import type { JsonSchema } from '../../shared/forms/model/schemaTypes';
import { signedDocuments } from '../../shared/forms/payload/payload';
import { allProperties } from '../../shared/forms/walk/schemaWalk';
import { encodeAnswer, type EncodedAnswer } from '../conditionalGet';
import { notFound } from '../errors';
import { publishedSha256 } from '../signatures/signatureEvidence';
import { UPLOAD_LIMITS } from '../storage/uploadLimits';
import { fileQuestions } from './applicationService';

/** Where the API serves a form, under the web API's prefix. */
const FORMS_PATH = '/exchange/api/web/forms';

const NO_FORM_MESSAGE = 'There is no registration form of that name.';

/** The registration forms, lowest `x-registration.choice.order` first (the choice page's order). */
export function registrationForms(app: FastifyInstance): CompiledForm[] {
  return [...app.forms.values()]
    .filter((form) => form.registration)
    .sort((a, b) => a.registration!.choice.order - b.registration!.choice.order);
}

export function formSummary(form: CompiledForm): FormSummary {
  return {
    id: form.id,
    title: form.schema.title ?? form.registration?.choice.label ?? form.id,
    description: typeof form.schema.description === 'string' ? form.schema.description : '',
    schemaHash: form.hash,
    url: `${FORMS_PATH}/${form.id}`,
  };
}

/**
 * The MIME types a file answer's schema takes: its `type`'s `enum` or `const`, under `then` (as
 * schemas/common/file.schema.json writes them) or plain.
 */
function acceptedTypes(schema: JsonSchema): string[] {
  for (const part of [schema.then, schema]) {
    const type = part?.properties?.type;
    if (Array.isArray(type?.enum) && type.enum.length) return type.enum.map(String);
    if (typeof type?.const === 'string') return [type.const];
  }
  return [];
}

function uploadsOf(form: CompiledForm): FormDocument['uploads'] {
  const properties = allProperties(form.schema, form.schema);
  return [...fileQuestions(form)].map(([pointer, { prompt }]) => {
    const schema = properties[fromPointer(pointer)[0]!]!;
    const size = schema.properties?.size?.maximum;
    return {
      pointer,
      title: prompt,
      kind: schema['x-file']!,
      accept: acceptedTypes(schema),
      maxBytes: typeof size === 'number' ? size : UPLOAD_LIMITS.fileSize,
    };
  });
}

/** The SHA-256 of the document published at a URL (the signature evidence's, by default). */
type DocumentHash = (url: string) => string | null;

/** The form whole, as `GET forms/{formId}` answers it. */
function formDocument(
  app: FastifyInstance,
  form: CompiledForm,
  hashOf: DocumentHash,
): FormDocument {
  return {
    ...formSummary(form),
    schema: form.schema,
    uiSchema: form.uiSchema,
    steps: form.steps ?? null,
    uploads: uploadsOf(form),
    agreements: signedDocuments(form).map((document) => ({
      part: document.part,
      pointer: document.pointer,
      title: document.title,
      url: `${app.config.publicUrl}${document.url}`,
      sha256: hashOf(document.url),
    })),
    nested: Object.fromEntries(
      Object.values(form.nested).map((inner) => [
        inner.id,
        { schema: inner.schema, uiSchema: inner.uiSchema },
      ]),
    ),
  };
}

/** Each form's answer, by what can change while the server runs: the published documents. */
const encoded = new WeakMap<CompiledForm, { documents: string; answer: EncodedAnswer }>();

/**
 * A registration form's answer, encoded with its ETag; 404 for any other id. Made again only
 * when a published document's hash changed (a firm replaced the PDF), not on every request.
 */
export async function servedForm(
  app: FastifyInstance,
  formId: string,
  hashOf: DocumentHash = publishedSha256,
): Promise<EncodedAnswer> {
  const form = app.forms.get(formId);
  if (!form?.registration) throw notFound(NO_FORM_MESSAGE);
  const documents = signedDocuments(form)
    .map((document) => hashOf(document.url))
    .join(',');
  const kept = encoded.get(form);
  if (kept?.documents === documents) return kept.answer;
  const answer = await encodeAnswer(JSON.stringify(formDocument(app, form, hashOf)));
  encoded.set(form, { documents, answer });
  return answer;
}
