/**
 * Changes requested question by question (issue 17): which question a JSON pointer into the
 * answers names, and which answers a resubmission may change. One rule for the server (pointers
 * refused, resubmissions checked) and the browser (what change mode leaves editable).
 */
import type { CompiledForm } from '../model/compiledForm';
import { listItemName } from './answerPlaces';
import { isPlainObject, type Answers, type JsonSchema } from '../model/schemaTypes';
import { isFileReference } from '../model/types';
import { childSchema, deref, isLeaf, itemSchemaAt, partsInForce } from './schemaWalk';
import { fromPointer, toPointer } from '../model/pointer';

/** A question of a form, found for given answers. */
interface Question {
  pointer: string;
  schema: JsonSchema;
  /** As the form shows it; inside a list item the item is named: 'Affiliated person 2: SSN'. */
  prompt: string;
  /** Its own prompt, the item around it not named ('SSN'), as a dialog drawing the item shows it. */
  title: string;
}

const isListSchema = (schema: JsonSchema) => schema.type === 'array' || schema.items !== undefined;

/**
 * The question `pointer` names in the form, for `answers`: a property in force under their
 * conditions (inside list items too, the item existing in the answers), or a list item itself.
 * Null for anything else: no question there, a condition hides it, an item not in the answers,
 * or the whole form ('').
 */
export function questionAt(form: CompiledForm, answers: Answers, pointer: string): Question | null {
  if (!pointer.startsWith('/')) return null;
  const root = form.schema;
  let schema: JsonSchema = root;
  let value: unknown = answers;
  let prefix = '';
  const keys = fromPointer(pointer);
  for (const [index, key] of keys.entries()) {
    const last = index === keys.length - 1;
    const resolved = deref(schema, root);
    if (isListSchema(resolved)) {
      if (!/^(0|[1-9]\d*)$/.test(key) || !Array.isArray(value)) return null;
      const position = Number(key);
      if (position >= value.length) return null;
      const item = itemSchemaAt(resolved, position, root);
      if (!item) return null;
      const itemName = listItemName(item, resolved, keys[index - 1] ?? '', position);
      if (last) return { pointer, schema: item, prompt: `${prefix}${itemName}`, title: itemName };
      prefix = `${prefix}${itemName}: `;
      schema = item;
      value = value[position];
      continue;
    }
    if (isLeaf(resolved)) return null;
    const parts = partsInForce(form.validator, resolved, root, value);
    const child = childSchema(parts, key, root);
    if (!child) return null;
    if (last) {
      const title = child.title ?? key;
      return { pointer, schema: child, prompt: `${prefix}${title}`, title };
    }
    schema = child;
    value = isPlainObject(value) ? value[key] : undefined;
  }
  return null;
}

/** Whether `pointer` is `marked` or inside it (`/persons/0/ssn` is inside `/persons/0`). */
export const isWithin = (pointer: string, marked: string): boolean =>
  pointer === marked || pointer.startsWith(`${marked}/`);

const isBlank = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === '' ||
  (isPlainObject(value) && Object.keys(value).length === 0);

/** The pointers where two answer trees differ, outermost where one side has nothing. */
function differences(before: unknown, after: unknown, keys: string[], out: string[][]): void {
  if (isBlank(before) && isBlank(after)) return;
  // A file reference (`{name, type, size}`) is one answer, compared whole.
  const bothObjects =
    isPlainObject(before) &&
    isPlainObject(after) &&
    !isFileReference(before) &&
    !isFileReference(after);
  if (bothObjects) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      differences(before[key], after[key], [...keys, key], out);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    before.forEach((item: unknown, index) =>
      differences(item, after[index], [...keys, String(index)], out),
    );
    return;
  }
  if (!sameValue(before, after)) out.push(keys);
}

/** Deep equality whatever the key order (stored JSON comes back with its keys reordered). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item: unknown, index) => sameValue(item, b[index]))
    );
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameValue(a[key], b[key]));
  }
  return a === b;
}

/**
 * The one rule of a change request (issue 17), for the save, the file routes, the resubmission
 * and change mode alike: the first answer `next` changes from the answers as submitted
 * (`submitted`) that the request did not ask for, or null when every change was asked for.
 *
 * Asked for: an answer at or inside a marked pointer, and one the change of a marked answer makes
 * appear or disappear (not in force under the submitted answers, or no longer in force under the
 * new ones). A request with only a note (no marked pointer) asked in words alone, so it narrows
 * nothing: every answer may change. `replaced` names answers whose content changed although
 * their value reads the same (a file replaced by one of the same name, type and size).
 */
export function unrequestedChange(
  form: CompiledForm,
  submitted: Answers,
  next: Answers,
  marked: readonly string[],
  replaced: readonly string[] = [],
): Question | null {
  if (marked.length === 0) return null;
  const changed: string[][] = replaced.map(fromPointer);
  differences(submitted, next, [], changed);
  for (const keys of changed) {
    const pointer = toPointer(keys);
    if (marked.some((mark) => isWithin(pointer, mark))) continue;
    const wasAsked = questionAt(form, submitted, pointer);
    const isAsked = questionAt(form, next, pointer);
    // Appeared or disappeared with a condition (a list item added or removed is not that).
    if (!wasAsked || !isAsked) {
      const parent = toPointer(keys.slice(0, -1));
      const listChanged =
        parent !== '' && isListSchema(questionAt(form, submitted, parent)?.schema ?? {});
      if (!listChanged) continue;
    }
    return (
      wasAsked ?? isAsked ?? { pointer, schema: {}, prompt: keys.join(' '), title: keys.join(' ') }
    );
  }
  return null;
}

/** The refusal of an answer changed outside the request, naming its question by prompt. */
export const unrequestedChangeMessage = (question: Question): string =>
  `${question.prompt} was not among the changes requested; it cannot change.`;

/**
 * Whether change mode lets the applicant edit the question at `pointer` ('' is the whole form),
 * by the same rule as `unrequestedChange`: everything under a request with a note alone; else a
 * question marked or inside a marked one, or not asked under the submitted answers (a marked
 * answer's change made it appear).
 */
export function isEditableInChangeMode(
  form: CompiledForm,
  submitted: Answers,
  marked: readonly string[],
  pointer: string,
): boolean {
  if (marked.length === 0) return true;
  if (marked.some((mark) => isWithin(pointer, mark))) return true;
  return pointer !== '' && questionAt(form, submitted, pointer) === null;
}
