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
import { parseUsDate } from '../rules/date';
import { unstorableTextPath } from '../rules/storableText';
import { omitHiddenAnswers } from './answers';
import { loadForm, type LoadedForm } from './loadForm';
import {
  allProperties,
  deref,
  fieldsInOrder,
  fromPointer,
  isLeaf,
  objectItemsOf,
  propertiesInForce,
  toPointer,
} from './schemaWalk';
import { isPlainObject, type Answers, type JsonSchema } from './schemaTypes';
import type { FileReference, FormId } from './types';
import { formValidator } from './validators';

export interface PayloadEntry {
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
  formId: FormId;
  schemaHash: string;
  /** Top-level sections by part name (`userInfo`, `individualInfo`). */
  parts: Record<string, Record<string, unknown>>;
  files: PayloadFile[];
  documents: SignedDocument[];
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

/** One item of a list of objects: its answers as entries, grouped by their `x-section`. */
function itemEntry(
  root: JsonSchema,
  items: JsonSchema,
  item: unknown,
  keys: string[],
  prompt: string,
): PayloadEntry {
  if (!isPlainObject(item)) return { prompt, value: item };
  const properties = allProperties(items, root);
  const loose: Record<string, PayloadEntry> = {};
  const sections: Record<string, Record<string, PayloadEntry>> = {};
  for (const [key, child] of Object.entries(item)) {
    const schema = properties[key];
    if (!schema) continue;
    const section = schema['x-section'];
    const target = section ? (sections[section] ??= {}) : loose;
    target[key] = entry(root, schema, child, [...keys, key]);
  }
  return { prompt, value: { ...loose, ...sections } };
}

function entry(root: JsonSchema, schema: JsonSchema, value: unknown, keys: string[]): PayloadEntry {
  const out: PayloadEntry = {
    prompt: schema.title ?? keys.at(-1) ?? '',
    value: sentValue(schema, value),
  };
  const items = objectItemsOf(schema, root);
  if (items && Array.isArray(value)) {
    const name = items.title ?? out.prompt;
    out.value = value.map((item: unknown, index) =>
      itemEntry(root, items, item, [...keys, String(index)], `${name} ${index + 1}`),
    );
  } else if (!isLeaf(schema) && isPlainObject(value)) {
    const properties = allProperties(schema, root);
    out.value = Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => properties[key])
        .map(([key, child]) => [key, entry(root, properties[key]!, child, [...keys, key])]),
    );
  }
  const option = deref(schema, root).oneOf?.find((choice) => choice.const === value);
  if (option?.title) out.label = option.title;
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

function sectionPointer(form: LoadedForm, section: string | undefined, pointer: string): string {
  const sections = form.schema['x-sections'] ?? {};
  const target = section && sections[section];
  if (!target) throw new Error(`Field ${pointer} of form ${form.formId} has no payload section`);
  return target;
}

/** The multipart part of the document a section's signature signs. */
const signaturePart = (section: string) => `document.signature.${section}`;

const documentsCache = new Map<string, SignedDocument[]>();

/**
 * The signed documents of a form: each agreement's PDF (`x-document`) and each signature's
 * (`x-signatures`), what the browser fetches and passes to `toPayload`. Blank forms the user
 * downloads (`x-template`) are not among them: the user uploads them signed, as answers.
 */
export function signedDocuments(formId: FormId): SignedDocument[] {
  const form = loadForm(formId);
  const cached = documentsCache.get(form.hash);
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
  documentsCache.set(form.hash, documents);
  return documents;
}

/** Who signs: the user's name as the form's `x-registration` names it. */
function signerName(form: LoadedForm, answers: Answers): string {
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
function checkItems(form: LoadedForm, schema: JsonSchema, value: unknown, keys: string[]): void {
  const items = objectItemsOf(schema, form.schema);
  if (!items || !Array.isArray(value)) return;
  const name = items.title ?? schema.title ?? keys.at(-1) ?? '';
  const validator = formValidator(form.formId);
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

const isMissing = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && !value.trim());

/**
 * The payload as data. `files` (by answer pointer) are checked when given: a required file whose
 * bytes are missing or empty fails like a missing answer. Throws `PayloadError` with the
 * field's `x-submission-required` message.
 */
export function toPayloadJson(
  formId: FormId,
  answers: Answers,
  files?: Record<string, Blob>,
): PayloadJson {
  const form = loadForm(formId);
  const shown = omitHiddenAnswers(formId, answers);
  const payload: PayloadJson = {
    formId,
    schemaHash: form.hash,
    parts: {},
    files: [],
    documents: signedDocuments(formId),
  };
  // The schema in force for these answers: a `x-submission-required` inside a `then` counts only
  // when its condition holds.
  const inForce = propertiesInForce(formValidator(formId), form.schema, form.schema, shown);
  for (const field of fieldsInOrder(form.schema, form.uiSchema)) {
    const key = field.keys[0]!;
    const property = inForce[key];
    if (field.keys.length !== 1 || !property) continue;
    const value = shown[key];
    const present = !isMissing(value);
    const blob = files?.[field.pointer];
    const required = deref(property, form.schema)['x-submission-required'];
    const bytesMissing = files !== undefined && field.schema['x-file'] && !(blob && blob.size > 0);
    if (required !== undefined && (!present || bytesMissing)) {
      throw new PayloadError(required, field.pointer);
    }
    if (!present) continue;
    checkItems(form, field.schema, value, field.keys);
    const item = entry(form.schema, field.schema, value, field.keys);
    for (const section of [field.schema['x-section'], ...(field.schema['x-also-in'] ?? [])]) {
      place(payload.parts, sectionPointer(form, section, field.pointer))[key] = item;
    }
    if (field.schema['x-file'] && isPlainObject(value)) {
      const reference = value as unknown as FileReference;
      payload.files.push({
        part: partName(field.keys),
        pointer: field.pointer,
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
 * its part name, each signed document (`documents`, by URL, fetched by the caller from
 * /assets/pdfs) under `document.<agreement>`.
 */
export function toPayload(
  formId: FormId,
  answers: Answers,
  files: Record<string, Blob>,
  documents: Record<string, Blob>,
): FormData {
  const payload = toPayloadJson(formId, answers, files);
  const form = new FormData();
  form.append('formId', payload.formId);
  form.append('schemaHash', payload.schemaHash);
  for (const [name, section] of Object.entries(payload.parts)) {
    form.append(name, JSON.stringify(section));
  }
  for (const file of payload.files) {
    form.append(file.part, files[file.pointer]!, file.name);
  }
  for (const document of payload.documents) {
    const blob = documents[document.url];
    if (!blob) throw new Error(`Signed document ${document.url} was not provided`);
    form.append(document.part, blob, document.url.split('/').pop());
  }
  return form;
}

export interface DecodedPayload {
  formId: FormId;
  schemaHash: string;
  answers: Answers;
  /** The prompt sent with each answer, by answer pointer. */
  prompts: Record<string, string>;
}

function decode(
  root: JsonSchema,
  schema: JsonSchema,
  item: unknown,
  keys: string[],
  prompts: Record<string, string>,
): unknown {
  if (!isPlainObject(item) || !('value' in item)) return undefined;
  if (typeof item.prompt === 'string') prompts[toPointer(keys)] = item.prompt;
  const items = objectItemsOf(schema, root);
  if (items && Array.isArray(item.value)) {
    return item.value.map((element: unknown, index) =>
      decodeObject(root, items, element, [...keys, String(index)], prompts, true),
    );
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
  if (!isPlainObject(item) || !('value' in item)) return undefined;
  if (typeof item.prompt === 'string') prompts[toPointer(keys)] = item.prompt;
  if (!isPlainObject(item.value)) return item.value;
  const properties = allProperties(schema, root);
  const out: Answers = {};
  const take = (entries: Record<string, unknown>) => {
    for (const [key, child] of Object.entries(entries)) {
      const childSchema = properties[key];
      if (childSchema) {
        const value = decode(root, childSchema, child, [...keys, key], prompts);
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
export function fromPayload(formId: FormId, fields: Record<string, string>): DecodedPayload {
  const form = loadForm(formId);
  const root = form.schema;
  const sections = root['x-sections'] ?? {};
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
  const properties = allProperties(root, root);
  const answers: Answers = {};
  const prompts: Record<string, string> = {};
  for (const pointer of Object.values(sections)) {
    let node: unknown = parts;
    for (const key of fromPointer(pointer)) node = isPlainObject(node) ? node[key] : undefined;
    if (!isPlainObject(node)) continue;
    for (const [key, item] of Object.entries(node)) {
      const schema = properties[key];
      if (!schema || key in answers) continue;
      const value = decode(root, schema, item, [key], prompts);
      if (value !== undefined) answers[key] = value;
    }
  }
  return { formId, schemaHash: fields.schemaHash ?? '', answers, prompts };
}
