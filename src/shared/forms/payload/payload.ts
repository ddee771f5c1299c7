/**
 * The serializer: answers → the multipart payload, and back for the server.
 *
 * Every answer travels as `{prompt, value}` (the prompt being the schema `title` the user saw),
 * with `variant` where the field has `x-variants`, `part` naming the multipart part of a file,
 * and `document` for an agreement's signed PDF. Entries sit in the sections of the form's
 * `x-sections` (each top-level section one JSON part); files and signed documents are parts of
 * their own; `formId` and `schemaHash` say which wording version was answered. A list of objects
 * (affiliated persons) sends one entry per item, prompted with the item's name and position, its
 * answers grouped by their `x-section` (an ownership section for each person). `x-send-as`
 * changes what a value is sent as (a date as yyyy-MM-dd); `fromPayload` turns it back.
 * A section with a signature prompt (`x-signatures`) carries it as its `signature` entry, the
 * value being the signer's name; a blank form the user downloads (`x-template`) is never attached.
 */
import { parseUsDate } from '../../rules/date';
import { unstorableTextPath } from '../../rules/storableText';
import { listItemName } from '../walk/answerPlaces';
import { omitHiddenAnswers } from '../walk/answers';
import { optionTitle, optionTitles, uiAtKeys } from '../model/optionTitle';
import type { CompiledForm } from '../model/compiledForm';
import {
  childSchema,
  deref,
  fieldsInOrder,
  isLeaf,
  itemSchemaAt,
  listItemsAnswered,
  objectItemsOf,
  objectParts,
  partsInForce,
  propertiesInForce,
  sectionsOf,
} from '../walk/schemaWalk';
import { isPlainObject, type Answers, type JsonSchema } from '../model/schemaTypes';
import { isFileReference, type FileReference } from '../model/types';
import { fromPointer, toPointer } from '../model/pointer';

interface PayloadEntry {
  prompt: string;
  /** The answer; for an object (an address), its parts as entries. */
  value: unknown;
  /** The option label the user picked (`Yes`, `$100,000 or over`), for choice questions. */
  label?: string;
  variant?: string;
  /** The multipart part holding a file's bytes. */
  part?: string;
  /** The signed document an agreement attaches. */
  document?: { url: string; part: string };
}

export interface PayloadFile extends FileReference {
  part: string;
  pointer: string;
}

export interface SignedDocument {
  part: string;
  /** The agreement's answer; '' for a section's signature (always signed by submitting). */
  pointer: string;
  title: string;
  url: string;
}

/** The payload as data (what `toPayload` encodes as FormData; what `forms payload` prints). */
export interface PayloadJson {
  formId: string;
  schemaHash: string;
  /** Top-level sections by part name (`userInfo`, `individualInfo`). */
  parts: Record<string, Record<string, unknown>>;
  files: PayloadFile[];
  documents: SignedDocument[];
}

/**
 * Where the entries of some answers went: each entry built for an answer whose pointer is in
 * `wanted` is noted in `entries` by the entry object itself, which the payload holds as it is
 * (in each section the answer is sent in). Sealing finds the sensitive answers' places in the
 * payload this way (`server/fieldEncryption/registrationSealing.ts`), without building it twice.
 */
export interface PayloadTrace {
  readonly wanted: ReadonlySet<string>;
  readonly entries: Map<object, string>;
}

/** Building the submission failed (a required file or answer missing); message from the schema. */
export class PayloadError extends Error {
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(message);
    this.name = 'PayloadError';
  }
}

/** The multipart part name of a field: its keys joined with dots (`photoId`). */
export const partName = (keys: readonly string[]): string => keys.join('.');
const documentPart = (keys: readonly string[]) => `document.${partName(keys)}`;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The value sent for an answer (`x-send-as`); an answer it cannot convert is sent as answered. */
function sentValue(schema: JsonSchema, value: unknown): unknown {
  const rule = schema['x-send-as'];
  if (rule === 'iso-date') {
    const date = typeof value === 'string' ? parseUsDate(value) : null;
    if (!date) return value;
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1, 2)}-${pad(date.getDate(), 2)}`;
  }
  if (isPlainObject(rule) && typeof value === 'string' && value in rule) return rule[value];
  return value;
}

/** The answer a sent value stands for: `sentValue` reversed. */
function answeredValue(schema: JsonSchema, sent: unknown): unknown {
  const rule = schema['x-send-as'];
  if (rule === 'iso-date' && typeof sent === 'string') {
    const [, year, month, day] = ISO_DATE.exec(sent) ?? [];
    return year ? `${month}/${day}/${year}` : sent;
  }
  if (isPlainObject(rule)) {
    const answer = Object.entries(rule).find(([, value]) => value === sent);
    if (answer) return answer[0];
  }
  return sent;
}

/** The prompt of an answer: its title; for a key the user named (additional answers), with it. */
function promptOf(schema: JsonSchema, key: string, declared: boolean): string {
  if (declared) return schema.title ?? key;
  return schema.title ? `${schema.title} (${key})` : key;
}

/** The answers of an object in force for its value, each as its entry, in the value's order. */
function objectEntries(
  form: CompiledForm,
  schema: JsonSchema,
  value: Record<string, unknown>,
  keys: string[],
  sectioned: boolean,
  trace: PayloadTrace | undefined,
): Record<string, unknown> {
  const parts = partsInForce(form.validator, schema, form.schema, value);
  const loose: Record<string, PayloadEntry> = {};
  const sections: Record<string, Record<string, PayloadEntry>> = {};
  for (const [key, child] of Object.entries(value)) {
    const childSchema_ = childSchema(parts, key, form.schema);
    if (!childSchema_ || child === undefined) continue;
    const declared = parts.some((part) => part.properties?.[key] !== undefined);
    const section = sectioned ? childSchema_['x-section'] : undefined;
    const target = section ? (sections[section] ??= {}) : loose;
    target[key] = entry(form, childSchema_, child, [...keys, key], declared, trace);
  }
  return { ...loose, ...sections };
}

function entry(
  form: CompiledForm,
  schema: JsonSchema,
  value: unknown,
  keys: string[],
  declared: boolean,
  trace: PayloadTrace | undefined,
): PayloadEntry {
  const root = form.schema;
  const out: PayloadEntry = {
    prompt: promptOf(schema, keys.at(-1) ?? '', declared),
    value: sentValue(schema, value),
  };
  if (trace && trace.wanted.size > 0) {
    const pointer = toPointer(keys);
    if (trace.wanted.has(pointer)) trace.entries.set(out, pointer);
  }
  if (Array.isArray(value) && listItemsAnswered(schema, root)) {
    // A list of records (affiliated persons) or a tuple: one entry per item, prompted with the
    // item's own title or the list's item name and position; a record's answers grouped by
    // their `x-section` (an ownership section for each person).
    out.value = value.map((item: unknown, index) => {
      const itemSchema = itemSchemaAt(schema, index, root) ?? {};
      const name = listItemName(itemSchema, schema, out.prompt, index);
      const itemKeys = [...keys, String(index)];
      if (!isLeaf(itemSchema) && isPlainObject(item)) {
        return {
          prompt: name,
          value: objectEntries(form, itemSchema, item, itemKeys, true, trace),
        };
      }
      const tuple = Array.isArray(deref(schema, root).items);
      const schemaOfItem = tuple ? itemSchema : { ...itemSchema, title: name };
      return entry(form, schemaOfItem, item, itemKeys, true, trace);
    });
  } else if (!isLeaf(schema) && isPlainObject(value)) {
    out.value = objectEntries(form, schema, value, keys, false, trace);
  }
  const ui = uiAtKeys(form.uiSchema, keys);
  const label = Array.isArray(value)
    ? optionTitles(schema, value, ui, root)
    : optionTitle(schema, value, ui, root);
  if (label) out.label = label;
  const variant = schema['x-variants']?.[String(value)];
  if (variant) out.variant = variant;
  if (schema['x-file']) out.part = partName(keys);
  if (schema['x-document']) out.document = { url: schema['x-document'], part: documentPart(keys) };
  return out;
}

function place(
  parts: Record<string, Record<string, unknown>>,
  pointer: string,
): Record<string, unknown> {
  let node: Record<string, unknown> = parts;
  for (const key of fromPointer(pointer)) {
    if (!isPlainObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  return node;
}

function sectionPointer(form: CompiledForm, section: string | undefined, pointer: string): string {
  const sections = sectionsOf(form.schema);
  const target = section ? sections[section] : Object.values(sections)[0];
  if (!target) throw new Error(`Field ${pointer} of form ${form.id} has no payload section`);
  return target;
}

/** The multipart part of the document a section's signature signs. */
const signaturePart = (section: string) => `document.signature.${section}`;

const documentsCache = new WeakMap<CompiledForm, SignedDocument[]>();

/**
 * The signed documents of a form: each agreement's PDF (`x-document`) and each signature's
 * (`x-signatures`), what the browser fetches and passes to `toPayload`. Blank forms the user
 * downloads (`x-template`) are not among them: the user uploads them signed, as answers.
 */
export function signedDocuments(form: CompiledForm): SignedDocument[] {
  const cached = documentsCache.get(form);
  if (cached) return cached;
  const agreements = fieldsInOrder(form.schema, form.uiSchema)
    .filter((field) => field.schema['x-document'])
    .map((field) => ({
      part: documentPart(field.keys),
      pointer: field.pointer,
      title: field.schema.title ?? '',
      url: field.schema['x-document']!,
    }));
  const signatures = Object.entries(form.schema['x-signatures'] ?? {})
    .filter(([, signature]) => signature.document)
    .map(([section, signature]) => ({
      part: signaturePart(section),
      pointer: '',
      title: signature.prompt,
      url: signature.document!,
    }));
  const documents = [...agreements, ...signatures];
  documentsCache.set(form, documents);
  return documents;
}

/** Who signs: the user's name as the form's `x-registration` names it. */
function signerName(form: CompiledForm, answers: Answers): string {
  const details = form.schema['x-registration']?.userDetails;
  if (!details) return '';
  return [answers[details.firstName], answers[details.lastName]]
    .filter((part): part is string => typeof part === 'string')
    .join(' ')
    .trim();
}

/**
 * Build-time checks inside the items of a list of objects (an affiliated person's state and
 * country, §5.6): `x-submission-required` of each item under its own conditions, the message
 * prefixed with the item's name and position like a validation message.
 */
function checkItems(form: CompiledForm, schema: JsonSchema, value: unknown, keys: string[]): void {
  const items = objectItemsOf(schema, form.schema);
  if (!items || !Array.isArray(value)) return;
  const name = items.title ?? schema.title ?? keys.at(-1) ?? '';
  const validator = form.validator;
  value.forEach((item: unknown, index) => {
    if (!isPlainObject(item)) return;
    const inForce = propertiesInForce(validator, items, form.schema, item);
    for (const [key, property] of Object.entries(inForce)) {
      const required = property['x-submission-required'];
      if (required !== undefined && isMissing(item[key])) {
        throw new PayloadError(
          `${name} ${index + 1}: ${required}`,
          toPointer([...keys, String(index), key]),
        );
      }
    }
  });
}

const allowsNull = (schema: JsonSchema) =>
  schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'));

const isMissing = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && !value.trim());

/**
 * The payload as data. `files` (by answer pointer) are checked when given: a required file whose
 * bytes are missing or empty fails like a missing answer, unless its pointer is `held` (the
 * applicant's application on the server holds the file, so its part is left out). Throws
 * `PayloadError` with the field's `x-submission-required` message. `trace` notes the entries of
 * the answers it wants (`PayloadTrace`).
 */
export function toPayloadJson(
  form: CompiledForm,
  answers: Answers,
  files?: Record<string, Blob>,
  held: ReadonlySet<string> = new Set(),
  trace?: PayloadTrace,
): PayloadJson {
  const shown = omitHiddenAnswers(form, answers);
  const payload: PayloadJson = {
    formId: form.id,
    schemaHash: form.hash,
    parts: {},
    files: [],
    documents: signedDocuments(form),
  };
  // The schema in force for these answers: a `x-submission-required` inside a `then` counts only
  // when its condition holds.
  const parts = partsInForce(form.validator, form.schema, form.schema, shown);
  // Every section is sent, empty ones too (only optional answers, none given): the server reads
  // each part the form has.
  for (const section of Object.values(sectionsOf(form.schema))) place(payload.parts, section);
  const inForce = propertiesInForce(form.validator, form.schema, form.schema, shown);
  const ordered = fieldsInOrder(form.schema, form.uiSchema)
    .filter((field) => field.keys.length === 1)
    .map((field) => field.keys[0]!);
  // The form's questions in form order, then answers to keys the user named (additional ones).
  const keys = [...new Set([...ordered, ...Object.keys(shown)])];
  for (const key of keys) {
    const declared = inForce[key] !== undefined;
    const property = childSchema(parts, key, form.schema);
    if (!property || (!declared && ordered.includes(key))) continue;
    const pointer = toPointer([key]);
    const value = shown[key];
    // A null a nullable question takes is an answer (rjsf's `ui:emptyValue: null`), sent as such.
    const present =
      !isMissing(value) || (value === null && allowsNull(deref(property, form.schema)));
    const blob = files?.[pointer];
    const required = property['x-submission-required'];
    const bytesMissing =
      files !== undefined && property['x-file'] && !(blob && blob.size > 0) && !held.has(pointer);
    if (required !== undefined && (isMissing(value) || bytesMissing)) {
      throw new PayloadError(required, pointer);
    }
    if (!present) continue;
    checkItems(form, property, value, [key]);
    const item = entry(form, property, value, [key], declared, trace);
    for (const section of [property['x-section'], ...(property['x-also-in'] ?? [])]) {
      place(payload.parts, sectionPointer(form, section, pointer))[key] = item;
    }
    if (property['x-file'] && isFileReference(value)) {
      const reference = value;
      payload.files.push({
        part: partName([key]),
        pointer,
        name: reference.name,
        type: reference.type,
        size: reference.size,
      });
    }
  }
  const signer = signerName(form, shown);
  for (const [section, signature] of Object.entries(form.schema['x-signatures'] ?? {})) {
    const signed: PayloadEntry = { prompt: signature.prompt, value: signer || true };
    if (signature.document) {
      signed.document = { url: signature.document, part: signaturePart(section) };
    }
    place(payload.parts, sectionPointer(form, section, '/'))['signature'] = signed;
  }
  return payload;
}

/**
 * The multipart payload: `formId`, `schemaHash`, one JSON field per section part, each file under
 * its part name (except those `held` on the server: their bytes are not sent again), each signed
 * document (`documents`, by URL, fetched by the caller from /assets/pdfs) under
 * `document.<agreement>`.
 */
export function toPayload(
  compiled: CompiledForm,
  answers: Answers,
  files: Record<string, Blob>,
  documents: Record<string, Blob>,
  held: ReadonlySet<string> = new Set(),
): FormData {
  const payload = toPayloadJson(compiled, answers, files, held);
  const form = new FormData();
  form.append('formId', payload.formId);
  form.append('schemaHash', payload.schemaHash);
  for (const [name, section] of Object.entries(payload.parts)) {
    form.append(name, JSON.stringify(section));
  }
  for (const file of payload.files) {
    const blob = files[file.pointer];
    // A held file without new bytes: the server attaches the one it holds.
    if (blob && !held.has(file.pointer)) form.append(file.part, blob, file.name);
  }
  for (const document of payload.documents) {
    const blob = documents[document.url];
    if (!blob) throw new Error(`Signed document ${document.url} was not provided`);
    form.append(document.part, blob, document.url.split('/').pop());
  }
  return form;
}

interface DecodedPayload {
  formId: string;
  schemaHash: string;
  answers: Answers;
  /** The prompt sent with each answer, by answer pointer. */
  prompts: Record<string, string>;
}

/** A payload entry: `{prompt, value}`. */
const isEntry = (item: unknown): item is { prompt?: unknown; value: unknown } =>
  isPlainObject(item) && 'value' in item;

function decode(
  root: JsonSchema,
  schema: JsonSchema,
  item: unknown,
  keys: string[],
  prompts: Record<string, string>,
): unknown {
  if (!isEntry(item)) return undefined;
  if (typeof item.prompt === 'string') prompts[toPointer(keys)] = item.prompt;
  if (Array.isArray(item.value) && listItemsAnswered(schema, root)) {
    return item.value.map((element: unknown, index) => {
      const itemSchema = itemSchemaAt(schema, index, root) ?? {};
      const itemKeys = [...keys, String(index)];
      if (!isLeaf(itemSchema))
        return decodeObject(root, itemSchema, element, itemKeys, prompts, true);
      return decode(root, itemSchema, element, itemKeys, prompts);
    });
  }
  if (isLeaf(schema) || !isPlainObject(item.value)) return answeredValue(schema, item.value);
  return decodeObject(root, schema, item, keys, prompts, false);
}

/** An object's answers from its entry; a list item's may be grouped in sections. */
function decodeObject(
  root: JsonSchema,
  schema: JsonSchema,
  item: unknown,
  keys: string[],
  prompts: Record<string, string>,
  sectioned: boolean,
): unknown {
  if (!isEntry(item)) return undefined;
  if (typeof item.prompt === 'string') prompts[toPointer(keys)] = item.prompt;
  if (!isPlainObject(item.value)) return item.value;
  // Every part the object may have (the decoder cannot know yet which branch the answers take;
  // the server then drops what the answers do not show and validates).
  const parts = objectParts(schema, root);
  const out: Answers = {};
  const take = (entries: Record<string, unknown>) => {
    for (const [key, child] of Object.entries(entries)) {
      const childSchema_ = childSchema(parts, key, root);
      if (childSchema_ && isEntry(child)) {
        const value = decode(root, childSchema_, child, [...keys, key], prompts);
        if (value !== undefined) out[key] = value;
      } else if (sectioned && isPlainObject(child) && !('value' in child)) {
        take(child); // a section of the item (`ownership`)
      }
    }
  };
  take(item.value);
  return out;
}

/**
 * The server's inverse of `toPayload`: answers (and the prompts sent) from the multipart text
 * fields. Unknown keys are ignored; the caller validates the answers with `validateAnswers`.
 * Throws on a missing or malformed section part.
 */
export function fromPayload(form: CompiledForm, fields: Record<string, string>): DecodedPayload {
  const root = form.schema;
  const sections = sectionsOf(root);
  const partNames = [...new Set(Object.values(sections).map((p) => fromPointer(p)[0]!))];
  const parts: Record<string, unknown> = {};
  for (const name of partNames) {
    const text = fields[name];
    if (text === undefined) throw new Error(`Missing payload part ${name}`);
    parts[name] = JSON.parse(text) as unknown;
    // A NUL or an unpaired surrogate could never be stored: the payload is unreadable.
    const unstorable = unstorableTextPath(parts[name]);
    if (unstorable !== null) throw new Error(`Unstorable text in ${name} at ${unstorable}`);
  }
  const rootParts = objectParts(root, root);
  const answers: Answers = {};
  const prompts: Record<string, string> = {};
  for (const pointer of Object.values(sections)) {
    let node: unknown = parts;
    for (const key of fromPointer(pointer)) node = isPlainObject(node) ? node[key] : undefined;
    if (!isPlainObject(node)) continue;
    for (const [key, item] of Object.entries(node)) {
      const schema = childSchema(rootParts, key, root);
      if (!schema || key in answers || !isEntry(item)) continue;
      const value = decode(root, schema, item, [key], prompts);
      if (value !== undefined) answers[key] = value;
    }
  }
  return { formId: form.id, schemaHash: fields.schemaHash ?? '', answers, prompts };
}
