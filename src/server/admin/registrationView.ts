/**
 * A stored registration as staff read it: each prompt the customer saw next to their answer, in
 * form order under section headings, taken from the stored payload (so the wording is the one
 * answered, even after a form is reworded). Sensitive identifiers (`x-sensitive` in the schema,
 * or by name when the form is unknown) come masked unless revealed.
 */
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import { fieldsInOrder, objectItemsOf, toPointer } from '../../shared/forms/walk/schemaWalk';
import { isPlainObject, type JsonSchema } from '../../shared/forms/model/schemaTypes';
import { countryName, regionName } from './placeNames';

export interface ViewRow {
  /** The answer's JSON pointer in the form's answers (`/socialSecurityNumber`). */
  pointer: string;
  prompt: string;
  /** The answer as text, masked when sensitive and not revealed; '' for groups. */
  text: string;
  sensitive: boolean;
  masked: boolean;
  /** A file or signed document: the multipart part, to find the stored document by. */
  part?: string;
  /** The part is the document this answer signed (an agreement, a step's signature). */
  signed?: boolean;
  /** An address or other group of answers. */
  children?: ViewRow[];
  /** A list of records (affiliated persons): each item's rows. */
  items?: ViewRow[][];
}

export interface ViewSection {
  heading: string;
  rows: ViewRow[];
}

/** Field names that are identifiers wherever they appear (a fallback when a form is unknown). */
const SENSITIVE_NAME = /(ssn|socialsecurity|dateofbirth|^dob$|passportnumber|taxid)/i;

/** Masks all but the last four characters of an identifier; a date is masked entirely. */
export function maskValue(text: string): string {
  if (/^(\d{1,2}\/\d{1,2}\/\d{4}|\d{4}-\d{2}-\d{2})$/.test(text)) return text.replace(/\d/g, '•');
  const significant = text.replace(/[^0-9a-z]/gi, '').length;
  const keep = Math.min(4, Math.floor(significant / 2));
  let toMask = significant - keep;
  return text.replace(/[0-9a-z]/gi, (c) => (toMask-- > 0 ? '•' : c));
}

/** `personalData` → `Personal data`. */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._-]+/g, ' ')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

interface FormInfo {
  /** Form order of each answer pointer. */
  order: Map<string, number>;
  schemas: Map<string, JsonSchema>;
  /** The payload section each top-level answer primarily belongs to. */
  sectionOf: Map<string, string>;
  /** Section pointer (in the payload) → section name. */
  sectionNames: Map<string, string>;
  /** A list of records' item fields (an affiliated person's), by the list's pointer. */
  itemFields: Map<string, { order: Map<string, number>; schemas: Map<string, JsonSchema> }>;
}

function formInfo(form: CompiledForm | undefined): FormInfo {
  const info: FormInfo = {
    order: new Map(),
    schemas: new Map(),
    sectionOf: new Map(),
    sectionNames: new Map(),
    itemFields: new Map(),
  };
  // A form whose schema folder is gone: shown from the payload alone.
  if (!form) return info;
  fieldsInOrder(form.schema, form.uiSchema).forEach((field, index) => {
    info.order.set(field.pointer, index);
    info.schemas.set(field.pointer, field.schema);
    if (field.keys.length === 1 && field.schema['x-section']) {
      info.sectionOf.set(field.keys[0]!, field.schema['x-section']);
    }
    const items = objectItemsOf(field.schema, form.schema);
    if (items) {
      const fields = fieldsInOrder(form.schema, undefined, items);
      info.itemFields.set(field.pointer, {
        order: new Map(fields.map((item, index) => [item.pointer, index])),
        schemas: new Map(fields.map((item) => [item.pointer, item.schema])),
      });
    }
  });
  for (const [name, pointer] of Object.entries(form.schema['x-sections'] ?? {})) {
    info.sectionNames.set(pointer, name);
  }
  return info;
}

/** `/affiliatedPersons/0/ssn` → the list `/affiliatedPersons` and the item's `/ssn`. */
function inItem(info: FormInfo, pointer: string) {
  const match = /^(\/[^/]+)\/\d+(\/.+)$/.exec(pointer);
  const fields = match ? info.itemFields.get(match[1]!) : undefined;
  return fields && match ? { fields, inner: match[2]! } : undefined;
}

const lastKey = (pointer: string) => pointer.slice(pointer.lastIndexOf('/') + 1);

/**
 * Countries and regions by name: a `…country` answer that is a known code, and a `region` next
 * to a `country` in the same group (an address). Masked answers are never touched.
 */
function namePlaces(rows: ViewRow[]): ViewRow[] {
  const country = rows.find((row) => lastKey(row.pointer) === 'country' && !row.masked)?.text;
  return rows.map((row) => {
    if (row.masked || row.children || row.items || row.part) return row;
    const key = lastKey(row.pointer);
    if (/country$/i.test(key)) return { ...row, text: countryName(row.text) };
    if (key === 'region') return { ...row, text: regionName(country, row.text) };
    return row;
  });
}

const rank = (info: FormInfo, pointer: string) =>
  info.order.get(pointer) ??
  (() => {
    const item = inItem(info, pointer);
    return item?.fields.order.get(item.inner);
  })() ??
  Number.MAX_SAFE_INTEGER;

const isEntry = (value: unknown): value is Record<string, unknown> & { prompt: unknown } =>
  isPlainObject(value) && 'prompt' in value && 'value' in value;

function isSensitive(info: FormInfo, pointer: string, key: string): boolean {
  const item = inItem(info, pointer);
  const schema = info.schemas.get(pointer) ?? item?.fields.schemas.get(item.inner);
  return schema?.['x-sensitive'] === true || SENSITIVE_NAME.test(key);
}

function scalarText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

function itemRows(
  info: FormInfo,
  item: unknown,
  pointer: string,
  revealed: ReadonlySet<string>,
): ViewRow[] {
  if (!isPlainObject(item)) {
    return [{ pointer, prompt: '', text: scalarText(item), sensitive: false, masked: false }];
  }
  const rows = Object.entries(item).map(([key, value]): ViewRow => {
    const childPointer = `${pointer}${toPointer([key])}`;
    if (isPlainObject(value) || Array.isArray(value)) {
      return {
        pointer: childPointer,
        prompt: humanize(key),
        text: '',
        sensitive: false,
        masked: false,
        children: itemRows(info, value, childPointer, revealed),
      };
    }
    return leafRow(info, childPointer, key, humanize(key), scalarText(value), revealed);
  });
  return namePlaces(rows);
}

function leafRow(
  info: FormInfo,
  pointer: string,
  key: string,
  prompt: string,
  text: string,
  revealed: ReadonlySet<string>,
): ViewRow {
  const sensitive = text !== '—' && isSensitive(info, pointer, key);
  const masked = sensitive && !revealed.has(pointer);
  return { pointer, prompt, text: masked ? maskValue(text) : text, sensitive, masked };
}

function entryRow(
  info: FormInfo,
  entry: Record<string, unknown>,
  keys: string[],
  revealed: ReadonlySet<string>,
): ViewRow {
  const pointer = toPointer(keys);
  const key = keys.at(-1)!;
  const prompt = typeof entry.prompt === 'string' && entry.prompt ? entry.prompt : humanize(key);
  const value = entry.value;
  const document = isPlainObject(entry.document) ? entry.document : undefined;
  if (typeof entry.part === 'string') {
    const name = isPlainObject(value) && typeof value.name === 'string' ? value.name : 'file';
    return { pointer, prompt, text: name, sensitive: false, masked: false, part: entry.part };
  }
  if (isPlainObject(value)) {
    const children = Object.entries(value)
      .filter(([, child]) => isEntry(child))
      .map(([childKey, child]) =>
        entryRow(info, child as Record<string, unknown>, [...keys, childKey], revealed),
      )
      .sort((a, b) => rank(info, a.pointer) - rank(info, b.pointer));
    return {
      pointer,
      prompt,
      text: '',
      sensitive: false,
      masked: false,
      children: namePlaces(children),
    };
  }
  if (Array.isArray(value)) {
    if (value.every((item) => !isPlainObject(item))) {
      const text = value.length ? value.map(scalarText).join(', ') : '—';
      return leafRow(info, pointer, key, prompt, text, revealed);
    }
    if (value.every(isEntry)) {
      // Records sent as entries (each affiliated person, prompted 'Affiliated person 1'): one
      // group per record, its answers by their prompts, in form order.
      const children = value.map((item, index) =>
        recordRow(info, item as Record<string, unknown>, [...keys, String(index)], revealed),
      );
      return { pointer, prompt, text: '', sensitive: false, masked: false, children };
    }
    const items = value.map((item, index) => itemRows(info, item, `${pointer}/${index}`, revealed));
    return { pointer, prompt, text: '', sensitive: false, masked: false, items };
  }
  const text = typeof entry.label === 'string' ? entry.label : scalarText(value);
  const row = namePlaces([leafRow(info, pointer, key, prompt, text, revealed)])[0]!;
  return typeof document?.part === 'string' ? { ...row, part: document.part, signed: true } : row;
}

/** One record of a list: its entries, those grouped in sections (`ownership`) included. */
function recordRow(
  info: FormInfo,
  record: Record<string, unknown>,
  keys: string[],
  revealed: ReadonlySet<string>,
): ViewRow {
  const entries: [string, Record<string, unknown>][] = [];
  const collect = (node: unknown) => {
    if (!isPlainObject(node)) return;
    for (const [key, child] of Object.entries(node)) {
      if (isEntry(child)) entries.push([key, child]);
      else collect(child); // a section of the record
    }
  };
  collect(record.value);
  const children = entries
    .map(([key, child]) => entryRow(info, child, [...keys, key], revealed))
    .sort((a, b) => rank(info, a.pointer) - rank(info, b.pointer));
  const prompt = typeof record.prompt === 'string' ? record.prompt : humanize(keys.at(-1)!);
  return { pointer: toPointer(keys), prompt, text: '', sensitive: false, masked: false, children };
}

/**
 * The sections of a stored payload (`registrations.payload`), each with its rows in form order.
 * `revealed` holds the pointers of sensitive answers to show in full.
 */
export function registrationView(
  form: CompiledForm | undefined,
  payload: Record<string, unknown>,
  revealed: ReadonlySet<string> = new Set(),
): ViewSection[] {
  const info = formInfo(form);
  const sections: { heading: string; rows: ViewRow[]; rank: number }[] = [];
  const walk = (node: Record<string, unknown>, path: string[]) => {
    const nodePointer = toPointer(path);
    const name = info.sectionNames.get(nodePointer) ?? path.at(-1) ?? '';
    const rows: { row: ViewRow; rank: number }[] = [];
    for (const [key, value] of Object.entries(node)) {
      if (isEntry(value)) {
        const primary = info.sectionOf.get(key);
        if (primary && primary !== name) continue; // repeated here by `x-also-in`
        const row = entryRow(info, value, [key], revealed);
        rows.push({ row, rank: rank(info, row.pointer) });
      } else if (isPlainObject(value)) {
        walk(value, [...path, key]);
      }
    }
    if (rows.length) {
      rows.sort((a, b) => a.rank - b.rank);
      sections.push({
        heading: humanize(name),
        rows: rows.map((r) => r.row),
        rank: rows[0]!.rank,
      });
    }
  };
  walk(payload, []);
  return sections.sort((a, b) => a.rank - b.rank).map(({ heading, rows }) => ({ heading, rows }));
}

/**
 * The prompt each stored document answers, by multipart part: a file answer's own prompt, an
 * agreement's prompt for the document it signed. Staff read documents by what they are.
 */
export function documentPrompts(sections: ViewSection[]): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (row: ViewRow) => {
    if (row.part && !out.has(row.part)) out.set(row.part, row.prompt);
    row.children?.forEach(visit);
    row.items?.forEach((item) => item.forEach(visit));
  };
  sections.forEach((section) => section.rows.forEach(visit));
  return out;
}

/** Every sensitive pointer of a view (to check that a reveal request names one). */
export function sensitivePointers(sections: ViewSection[]): Set<string> {
  const out = new Set<string>();
  const visit = (row: ViewRow) => {
    if (row.sensitive) out.add(row.pointer);
    row.children?.forEach(visit);
    row.items?.forEach((item) => item.forEach(visit));
  };
  sections.forEach((section) => section.rows.forEach(visit));
  return out;
}
