/**
 * Answers as read back: the rows of a form's review, from the compiled form and the one walker,
 * for whoever reads them (the applicant's Confirm step, the staff console, a version's diff).
 * Each row is a prompt from the schema (or the one the applicant was sent, when given), its
 * answer as text (option titles, Yes/No, countries and regions by name, a file's name) and
 * what the schema says of it (sensitive, a date, a file, a signed agreement). Sections come from
 * the uiSchema's steps. Renderers draw the rows and escape them; nothing here is markup.
 */
import { optionTitle, optionTitles } from '../model/optionTitle';
import { AsYouType } from 'libphonenumber-js';
import type { FormValidator } from '../model/schemaTypes';
import {
  isAgreement,
  isPlainObject,
  isSensitive,
  type Answers,
  type JsonSchema,
  type UiSchema,
} from '../model/schemaTypes';
import type { FormStep } from '../model/steps';
import { isFileReference } from '../model/types';
import { partName } from '../payload/payload';
import {
  childSchema,
  deref,
  isLeaf,
  itemSchemaAt,
  listItemsAnswered,
  objectItemsOf,
  orderKeys,
  partsInForce,
} from '../walk/schemaWalk';
import { countryName, regionName } from './placeNames';
import { toPointer } from '../model/pointer';

/** What the rows need of a form: the compiled form, or a session's schema and validator. */
export interface ReviewForm {
  readonly schema: JsonSchema;
  readonly uiSchema: UiSchema | undefined;
  readonly validator: FormValidator;
  readonly steps: FormStep[] | undefined;
  /** Forms drawn inside this one (the affiliated-person dialog), whose uiSchema orders items. */
  readonly nested?: Readonly<Record<string, { readonly uiSchema: UiSchema }>>;
}

const NOT_ANSWERED = 'Not answered';

export interface ReviewRow {
  /** The answer's JSON pointer in the form's answers (`/affiliatedPersons/0/ssn`). */
  pointer: string;
  prompt: string;
  /** The answer as text ('' for a group or a list; `Not answered` when missing). */
  text: string;
  answered: boolean;
  /** `x-sensitive` in the schema: an identifier, masked wherever others may see it. */
  sensitive: boolean;
  /** A date answer (the MM/DD/YYYY widget, or sent as a date). */
  date: boolean;
  /** A file answer: the multipart part its bytes were stored under, and the file's name. */
  file?: { part: string; name: string };
  /** An agreement: the part of the document it signed (`document.agreeTermsOfService`). */
  signedPart?: string;
  /** An object's answers (an address). */
  children?: ReviewRow[];
  /** A list of records (affiliated persons): each record's rows under its own title. */
  items?: ReviewItem[];
}

export interface ReviewItem {
  pointer: string;
  /** 'Affiliated person 1'. */
  title: string;
  rows: ReviewRow[];
}

export interface ReviewSection {
  /** The section's heading (the step's title when the section has none). */
  title: string;
  /** The section's own title, if any (the applicant's Edit lands on it). */
  sectionTitle: string | undefined;
  stepIndex: number;
  sectionIndex: number;
  stepId: string;
  rows: ReviewRow[];
}

interface ReviewOptions {
  /** The prompt the applicant was sent with each answer, by pointer (a stored payload's). */
  prompts?: Readonly<Record<string, string>>;
}

interface Context {
  form: ReviewForm;
  answers: Answers;
  prompts: Readonly<Record<string, string>>;
}

const isMissing = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0);

const uiOf = (ui: unknown, key: string | number): UiSchema | undefined => {
  const node = isPlainObject(ui) ? ui[String(key)] : undefined;
  return isPlainObject(node) ? node : undefined;
};

const optionsOf = (ui: UiSchema | undefined): Record<string, unknown> =>
  isPlainObject(ui?.['ui:options']) ? ui['ui:options'] : {};

/** An E.164 number grouped for reading: '+12125550142' → '+1 212 555 0142'. */
function phoneText(text: string): string {
  const digits = text.replace(/\D/g, '');
  return digits ? new AsYouType().input(`+${digits}`) : text;
}

/**
 * One answer as its reader reads it: option titles, Yes/No, Signed, a file's name, countries and
 * regions by name (the `country` and `region` widgets of the uiSchema), phone numbers grouped.
 * `siblings` are the answers beside it (a region's country).
 */
function answerText(
  schema: JsonSchema,
  ui: UiSchema | undefined,
  value: unknown,
  siblings: Answers = {},
  root?: JsonSchema,
): string {
  if (isMissing(value)) return NOT_ANSWERED;
  if (isAgreement(schema)) return value === true ? 'Signed' : 'Not signed';
  const title = optionTitle(schema, value, ui, root);
  if (title) return title;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (isFileReference(value)) return value.name;
  if (Array.isArray(value)) {
    return optionTitles(schema, value, ui, root) ?? value.map(scalar).join(', ');
  }
  const text = scalar(value);
  const widget = ui?.['ui:widget'];
  if (widget === 'country') return countryName(text);
  if (widget === 'region') {
    const field = optionsOf(ui).countryField;
    const country = siblings[typeof field === 'string' ? field : 'country'];
    return regionName(typeof country === 'string' ? country : undefined, text);
  }
  if (schema['x-phone'] !== undefined && text.startsWith('+')) return phoneText(text);
  return text;
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function isDate(schema: JsonSchema, ui: UiSchema | undefined): boolean {
  return (
    ui?.['ui:widget'] === 'usDate' || schema['x-send-as'] === 'iso-date' || schema.format === 'date'
  );
}

/** The uiSchema of a list's items: the nested form's when a dialog draws them, else `items`. */
function itemUi(ctx: Context, ui: UiSchema | undefined): UiSchema | undefined {
  const nested = optionsOf(ui).form;
  if (ui?.['ui:field'] && typeof nested === 'string' && ctx.form.nested?.[nested]) {
    return ctx.form.nested[nested].uiSchema;
  }
  return uiOf(ui, 'items');
}

function row(
  ctx: Context,
  raw: JsonSchema,
  value: unknown,
  keys: string[],
  ui: UiSchema | undefined,
  siblings: Answers,
): ReviewRow {
  const root = ctx.form.schema;
  const schema = deref(raw, root);
  const pointer = toPointer(keys);
  const prompt = ctx.prompts[pointer] ?? schema.title ?? keys.at(-1) ?? '';
  const base: ReviewRow = {
    pointer,
    prompt,
    text: '',
    answered: !isMissing(value),
    sensitive: isSensitive(schema),
    date: isDate(schema, ui),
  };
  if (schema['x-file'] !== undefined) {
    const name = isFileReference(value) ? value.name : '';
    return {
      ...base,
      text: name || NOT_ANSWERED,
      ...(name ? { file: { part: partName(keys), name } } : {}),
    };
  }
  const items = objectItemsOf(schema, root);
  if (!items && Array.isArray(value) && listItemsAnswered(schema, root)) {
    // A tuple: each item an answer of its own, under its own title or the list's and position.
    const itemsUi = uiOf(ui, 'items');
    return {
      ...base,
      text: value.length ? '' : NOT_ANSWERED,
      children: value.flatMap((item: unknown, index) => {
        const itemSchema = itemSchemaAt(schema, index, root);
        if (!itemSchema) return [];
        const titled = { ...itemSchema, title: itemSchema.title ?? `${prompt} ${index + 1}` };
        return [row(ctx, titled, item, [...keys, String(index)], itemsUi, {})];
      }),
    };
  }
  if (items && Array.isArray(value)) {
    const itemsUi = itemUi(ctx, ui);
    const name = items.title ?? prompt;
    return {
      ...base,
      text: value.length ? '' : NOT_ANSWERED,
      items: value.map((item: unknown, index) => {
        const itemKeys = [...keys, String(index)];
        const itemSchema = itemSchemaAt(schema, index, root) ?? items;
        return {
          pointer: toPointer(itemKeys),
          title: ctx.prompts[toPointer(itemKeys)] ?? `${name} ${index + 1}`,
          rows: isPlainObject(item) ? objectRows(ctx, itemSchema, item, itemKeys, itemsUi) : [],
        };
      }),
    };
  }
  if (!isLeaf(schema) && isPlainObject(value)) {
    return { ...base, children: objectRows(ctx, schema, value, keys, ui) };
  }
  const text = answerText(schema, ui, value, siblings, root);
  const signedPart = schema['x-document'] ? `document.${partName(keys)}` : undefined;
  return { ...base, text, ...(signedPart && value === true ? { signedPart } : {}) };
}

/**
 * The rows of an object's answers in force for `value` (conditions decided by the walker), in
 * the uiSchema's order: every question it asks (unanswered ones say so), then answers to keys
 * the applicant named (additional or pattern properties).
 */
function objectRows(
  ctx: Context,
  schema: JsonSchema,
  value: Answers,
  keys: string[],
  ui: UiSchema | undefined,
  only?: readonly string[],
): ReviewRow[] {
  const root = ctx.form.schema;
  const parts = partsInForce(ctx.form.validator, schema, root, value);
  const declared = [...new Set(parts.flatMap((part) => Object.keys(part.properties ?? {})))];
  const named = Object.keys(value).filter((key) => !declared.includes(key));
  const ordered = only
    ? only.filter((key) => declared.includes(key) || key in value)
    : [...orderKeys(declared, ui), ...named];
  const rows: ReviewRow[] = [];
  for (const key of ordered) {
    const child = childSchema(parts, key, root);
    if (!child) continue;
    rows.push(row(ctx, child, value[key], [...keys, key], uiOf(ui, key), value));
  }
  return rows;
}

/**
 * A form's review: its question steps' sections (a form without steps is one section named by
 * its title), each with the rows of its questions for `answers`. A section whose questions a
 * condition hides entirely is left out.
 */
export function reviewSections(
  form: ReviewForm,
  answers: Answers,
  options: ReviewOptions = {},
): ReviewSection[] {
  const ctx: Context = { form, answers, prompts: options.prompts ?? {} };
  const steps = form.steps ?? [
    {
      id: 'answers',
      title: form.schema.title ?? 'Answers',
      next: '',
      sections: [{ fields: [] as string[] }],
    },
  ];
  const out: ReviewSection[] = [];
  steps.forEach((step, stepIndex) => {
    if (step.review) return;
    step.sections.forEach((section, sectionIndex) => {
      const rows = objectRows(
        ctx,
        form.schema,
        answers,
        [],
        form.uiSchema,
        form.steps ? section.fields : undefined,
      );
      if (rows.length === 0) return;
      out.push({
        title: section.title ?? step.title,
        sectionTitle: section.title,
        stepIndex,
        sectionIndex,
        stepId: step.id,
        rows,
      });
    });
  });
  return out;
}

/** Every row of a review, depth first (records' rows included). */
export function allRows(sections: readonly ReviewSection[]): ReviewRow[] {
  const out: ReviewRow[] = [];
  const visit = (r: ReviewRow) => {
    out.push(r);
    r.children?.forEach(visit);
    r.items?.forEach((item) => item.rows.forEach(visit));
  };
  sections.forEach((section) => section.rows.forEach(visit));
  return out;
}

/**
 * Every row's prompt by pointer as it reads alone, away from the page's nesting: inside a list,
 * after its item's title (`Affiliated person 2: Passport country of issuance`), as a change
 * request names it.
 */
export function standaloneNames(sections: readonly ReviewSection[]): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (row: ReviewRow, prefix: string) => {
    out.set(row.pointer, `${prefix}${row.prompt}`);
    row.children?.forEach((child) => visit(child, prefix));
    row.items?.forEach((item) =>
      item.rows.forEach((child) => visit(child, `${prefix}${item.title}: `)),
    );
  };
  sections.forEach((section) => section.rows.forEach((row) => visit(row, '')));
  return out;
}
