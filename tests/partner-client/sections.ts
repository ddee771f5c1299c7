/**
 * The submission's JSON parts as a partner writes them (issue 40 §1): from docs/api.md, "The
 * submission's parts", and the form `GET forms/{formId}` serves, with Ajv for the form's
 * conditions, and nothing of the portal's code. tests/server/typed-client.test.ts submits what
 * this writes and checks it is what the portal's own serializer writes for the same answers, so
 * the document's description cannot drift from what the server reads.
 *
 * Like the integration, no cast and no hand-written API type: the served schema is JSON, read
 * with the guards below. It writes what the partner's form asks (the individual form): not a
 * list of records, which the document describes as well.
 */
import { Ajv } from 'ajv';
import type { components } from './openapi';

type Form = components['schemas']['Form'];
type Answers = components['schemas']['Application']['answers'];

/** A JSON object (a schema, an answer of parts). */
type Json = { [key: string]: unknown };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const objectAt = (value: unknown): Json => (isObject(value) ? value : {});
const listAt = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const textAt = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** The served schema's conditions, decided by Ajv (draft-07, the portal's `x-…` words allowed). */
const ajv = new Ajv({ strict: false, allErrors: false });

/** A schema with its local `$ref` (`#/$defs/…`) resolved; the words beside it win. */
function resolve(schema: Json, root: Json): Json {
  const ref = textAt(schema.$ref);
  if (!ref?.startsWith('#/')) return schema;
  let target: unknown = root;
  for (const key of ref.slice(2).split('/')) target = objectAt(target)[key];
  const { $ref: _ref, ...beside } = schema;
  return resolve({ ...objectAt(target), ...beside }, root);
}

/** An object's questions in force for its answers: its own, and those its `if`s add. */
function questionsOf(schema: Json, answers: Json): Record<string, Json> {
  const questions: Record<string, Json> = {};
  const add = (properties: unknown) => {
    for (const [key, question] of Object.entries(objectAt(properties))) {
      questions[key] = { ...questions[key], ...objectAt(question) };
    }
  };
  add(schema.properties);
  for (const part of listAt(schema.allOf).filter(isObject)) {
    if (!isObject(part.if)) add(part.properties);
    else add(objectAt(ajv.validate(part.if, answers) ? part.then : part.else).properties);
  }
  return questions;
}

/** `x-send-as`: a US date sent as `yyyy-MM-dd`; an object maps an answer to what is sent. */
function sent(question: Json, value: unknown): unknown {
  const rule = question['x-send-as'];
  if (rule === 'iso-date' && typeof value === 'string') {
    const [, month, day, year] = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value) ?? [];
    return year ? `${year}-${month}-${day}` : value;
  }
  if (isObject(rule) && typeof value === 'string' && value in rule) return rule[value];
  return value;
}

/** The wording of the chosen option: its `oneOf` title, or the uiSchema's `ui:enumNames`. */
function labelOf(question: Json, value: unknown, ui: Json): string | undefined {
  for (const option of listAt(question.oneOf ?? question.anyOf).filter(isObject)) {
    if (option.const === value) return textAt(option.title);
  }
  const index = listAt(question.enum).indexOf(value);
  return index < 0 ? undefined : textAt(listAt(ui['ui:enumNames'])[index]);
}

/** One answer's entry: `{ prompt, value }`, with `label`, `variant`, `part` and `document`. */
function entryOf(
  form: Form,
  key: string,
  pointer: string,
  question: Json,
  value: unknown,
  ui: Json,
) {
  const entry: Json = { prompt: textAt(question.title) ?? key, value: sent(question, value) };
  const schema = resolve(question, form.schema);
  if (
    isObject(value) &&
    isObject(schema.properties) &&
    !form.uploads.some((u) => u.pointer === pointer)
  ) {
    // An object question (an address): its answers as entries, by key, in the answer's order.
    const inner = questionsOf(schema, value);
    entry.value = Object.fromEntries(
      Object.entries(value)
        .filter(([name, answer]) => inner[name] && answer !== undefined)
        .map(([name, answer]) => {
          const child = resolve(inner[name]!, form.schema);
          return [
            name,
            entryOf(form, name, `${pointer}/${name}`, child, answer, objectAt(ui[name])),
          ];
        }),
    );
  }
  const label = labelOf(schema, value, ui);
  if (label) entry.label = label;
  const variant = objectAt(schema['x-variants'])[String(value)];
  if (typeof variant === 'string') entry.variant = variant;
  if (form.uploads.some((upload) => upload.pointer === pointer)) entry.part = key;
  // The agreement's `x-document` as the schema writes it; `agreements` serves it whole.
  const url = textAt(schema['x-document']);
  const agreement = form.agreements.find((candidate) => candidate.pointer === pointer);
  if (url && agreement) entry.document = { url, part: agreement.part };
  return entry;
}

const isAnswered = (value: unknown) =>
  value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');

/**
 * The submission's JSON parts, by part name (`userInfo`, `individualInfo`): every section of the
 * form's `x-sections` at its pointer, each answer the form asks in its section(s), and a signed
 * section's `signature`.
 */
export function submissionSections(form: Form, answers: Answers): Json {
  const root = form.schema;
  // Section name → its pointer in the parts (`/individualInfo/details/financialInfo`).
  const sections = new Map<string, string>();
  for (const [name, pointer] of Object.entries(objectAt(root['x-sections']))) {
    if (typeof pointer === 'string') sections.set(name, pointer);
  }
  const first = [...sections.values()][0];
  const parts: Json = {};
  const sectionAt = (name: string | undefined): Json => {
    const pointer = (name === undefined ? undefined : sections.get(name)) ?? first;
    let node = parts;
    for (const key of (pointer ?? '').split('/').slice(1)) {
      if (!isObject(node[key])) node[key] = {};
      node = objectAt(node[key]);
    }
    return node;
  };
  for (const name of sections.keys()) sectionAt(name);

  const questions = questionsOf(root, answers);
  for (const [key, value] of Object.entries(answers)) {
    const question = questions[key];
    if (!question || !isAnswered(value)) continue;
    const resolved = resolve(question, root);
    const entry = entryOf(form, key, `/${key}`, resolved, value, objectAt(form.uiSchema[key]));
    // Its `x-section` (else the first section), and each of its `x-also-in`.
    const names = [textAt(resolved['x-section']), ...listAt(resolved['x-also-in']).map(textAt)];
    for (const name of names) sectionAt(name)[key] = entry;
  }

  const signer = objectAt(objectAt(root['x-registration']).userDetails);
  const name = [signer.firstName, signer.lastName]
    .map((key) => (typeof key === 'string' ? answers[key] : undefined))
    .filter((part): part is string => typeof part === 'string')
    .join(' ')
    .trim();
  for (const [section, signature] of Object.entries(objectAt(root['x-signatures']))) {
    const signed: Json = { prompt: textAt(objectAt(signature).prompt), value: name || true };
    const url = textAt(objectAt(signature).document);
    if (url) signed.document = { url, part: `document.signature.${section}` };
    sectionAt(section).signature = signed;
  }
  return parts;
}
