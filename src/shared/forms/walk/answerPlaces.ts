/**
 * Answers by their place in a form: each answer's JSON pointer with the schema and prompt the
 * form gives it there, whatever branch holds (every part an object may show, through the
 * walker's `objectParts`/`childSchema`/`itemSchemaAt`). What a server-side application needs to
 * judge a save's shape (pointers the form knows), to name a question by its prompt, and to
 * carry answers from one version of a form to the next.
 */
import { isPlainObject, type Answers, type JsonSchema } from '../model/schemaTypes';
import {
  childSchema,
  fieldsInOrder,
  isLeaf,
  itemSchemaAt,
  listItemsAnswered,
  objectItemsOf,
  objectParts,
} from './schemaWalk';
import { fromPointer, toPointer } from '../model/pointer';

/** An answer's place: its pointer, the schema that asks it, and its prompt as shown. */
interface AnswerPlace {
  pointer: string;
  schema: JsonSchema;
  /** The question's title; inside a list item prefixed as 'Affiliated person 2: SSN'. */
  prompt: string;
}

/**
 * Per form root, the child schemas found so far by parent schema and key (a list's items under
 * `[]`): a save walks the same places once per affiliated person, and the walker's resolution
 * (parts, references) is the costly step. The children returned are the cached objects, so the
 * next level finds its parent here too. Bounded, since answers may name keys of their own.
 */
const childCache = new WeakMap<JsonSchema, WeakMap<JsonSchema, Map<string, JsonSchema | null>>>();
const listCache = new WeakMap<JsonSchema, boolean>();
const MAX_KEYS = 2000;

/** Whether a schema's value is a list whose items are answers of their own (cached). */
function isAnsweredList(schema: JsonSchema, root: JsonSchema): boolean {
  let found = listCache.get(schema);
  if (found === undefined) listCache.set(schema, (found = listItemsAnswered(schema, root)));
  return found;
}

/** The schema of the child `key` of a value whose schema is `schema` (object key or list index). */
function stepInto(schema: JsonSchema, key: string, root: JsonSchema): JsonSchema | undefined {
  const list = isAnsweredList(schema, root);
  if (list && !/^(0|[1-9]\d*)$/.test(key)) return undefined;
  if (!list && isLeaf(schema)) return undefined;
  // A tuple's items differ by index; any other list's items share one schema.
  const cacheKey = list && !Array.isArray(schema.items) ? '[]' : key;
  let byRoot = childCache.get(root);
  if (!byRoot) childCache.set(root, (byRoot = new WeakMap()));
  let children = byRoot.get(schema);
  if (!children) byRoot.set(schema, (children = new Map()));
  let child = children.get(cacheKey);
  if (child === undefined) {
    if (children.size > MAX_KEYS) children.clear();
    child = list
      ? (itemSchemaAt(schema, Number(key), root) ?? null)
      : (childSchema(objectParts(schema, root), key, root) ?? null);
    children.set(cacheKey, child);
  }
  return child ?? undefined;
}

/**
 * A list item's name as every prompt shows it ('Affiliated person 2'): the item's title, else
 * the list's, else the list's key, with its position. Places, the payload and a change
 * request's questions all name an item so.
 */
export const listItemName = (
  item: JsonSchema,
  list: JsonSchema,
  listKey: string,
  index: number,
): string => `${item.title ?? list.title ?? listKey} ${index + 1}`;

/**
 * The place of `pointer` in the form (an answer, or an object or list holding answers), or
 * undefined when the form has no question there.
 */
export function placeAt(root: JsonSchema, pointer: string): AnswerPlace | undefined {
  let schema = root;
  let prefix = '';
  const keys = fromPointer(pointer);
  for (const [depth, key] of keys.entries()) {
    const next = stepInto(schema, key, root);
    if (!next) return undefined;
    if (isAnsweredList(schema, root)) {
      prefix += `${listItemName(next, schema, keys[depth - 1] ?? '', +key)}: `;
    }
    schema = next;
  }
  return { pointer, schema, prompt: `${prefix}${schema.title ?? keys.at(-1) ?? ''}` };
}

/**
 * Walks `answers` through the form: `place` (when given) is called for every answer at its place
 * (leaves: a file reference, a list of plain values and any non-object answer count as one),
 * depth first; returns the pointers of answers the form has no question for. `keys` is the
 * walker's own array, valid during the call only.
 */
function walkAnswers(
  root: JsonSchema,
  answers: Answers,
  place?: (keys: readonly string[], schema: JsonSchema, prefix: string) => void,
): string[] {
  const unknown: string[] = [];
  const keys: string[] = [];
  const walk = (schema: JsonSchema, value: unknown, prefix: string) => {
    if (value === undefined) return;
    const list = Array.isArray(value) && isAnsweredList(schema, root);
    if (!list && (isLeaf(schema) || !isPlainObject(value))) {
      place?.(keys, schema, prefix);
      return;
    }
    const entries: [string, unknown][] = list
      ? (value as unknown[]).map((item, index) => [String(index), item])
      : Object.entries(value as Record<string, unknown>);
    for (const [key, child] of entries) {
      const next = stepInto(schema, key, root);
      if (!next) {
        unknown.push(toPointer([...keys, key]));
        continue;
      }
      // Prompts are built only for a caller that asks for places.
      const childPrefix =
        place && list
          ? `${prefix}${listItemName(next, schema, keys.at(-1) ?? '', +key)}: `
          : prefix;
      keys.push(key);
      walk(next, child, childPrefix);
      keys.pop();
    }
  };
  walk(root, answers, '');
  return unknown;
}

/**
 * Every answer of `answers` at its place: leaves (a file reference, a list of plain values and
 * any non-object answer count as one), depth first; `unknown` lists the pointers of answers the
 * form has no question for.
 */
export function answerPlaces(
  root: JsonSchema,
  answers: Answers,
): { places: AnswerPlace[]; unknown: string[] } {
  const places: AnswerPlace[] = [];
  const unknown = walkAnswers(root, answers, (keys, schema, prefix) => {
    const key = keys.at(-1) ?? '';
    places.push({ pointer: toPointer(keys), schema, prompt: `${prefix}${schema.title ?? key}` });
  });
  return { places, unknown };
}

/**
 * The pointers of the answers the form has no question for (what `answerPlaces` lists as
 * `unknown`), without building every answer's place: what a save's shape check needs.
 */
export function unknownAnswers(root: JsonSchema, answers: Answers): string[] {
  return walkAnswers(root, answers);
}

/**
 * Every question a form can ask, by a pointer pattern in which `*` stands for any item of a list
 * of records ('/affiliatedPersons/*\/ssn'), with its prompt ('Affiliated person: SSN'): what
 * two versions of a form are compared by.
 */
export function questionPatterns(root: JsonSchema): Map<string, AnswerPlace> {
  const out = new Map<string, AnswerPlace>();
  const walk = (start: JsonSchema, prefixKeys: string[], prefix: string, depth: number) => {
    for (const field of fieldsInOrder(root, undefined, start)) {
      if (!field.leaf) continue;
      const keys = [...prefixKeys, ...field.keys];
      const items = objectItemsOf(field.schema, root);
      if (items && depth < 4) {
        walk(items, [...keys, '*'], `${prefix}${items.title ?? field.keys.at(-1)}: `, depth + 1);
        continue;
      }
      const pointer = toPointer(keys);
      out.set(pointer, {
        pointer,
        schema: field.schema,
        prompt: `${prefix}${field.schema.title ?? keys.at(-1)}`,
      });
    }
  };
  walk(root, [], '', 0);
  return out;
}

/** An answer's pointer as a question pattern: list indexes of records become `*`. */
export function patternOf(root: JsonSchema, pointer: string): string {
  let schema = root;
  const out: string[] = [];
  for (const key of fromPointer(pointer)) {
    const list = isAnsweredList(schema, root);
    const next = stepInto(schema, key, root);
    out.push(list ? '*' : key);
    if (!next) return toPointer([...out, ...fromPointer(pointer).slice(out.length)]);
    schema = next;
  }
  return toPointer(out);
}

/** The value at a pointer of a document, or undefined. */
export function valueAt(document: unknown, pointer: string): unknown {
  let node = document;
  for (const key of fromPointer(pointer)) {
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isPlainObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}
