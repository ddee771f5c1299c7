/**
 * Validation with exactly the messages of the schema, the same in browser, server and CLI.
 *
 * Ajv with ajv-errors reports some things where users never see them; the translation here:
 * - `errorMessage.required` messages land on the parent object: moved to the missing field;
 * - the generic `must match "then" schema` (keyword `if`) errors: dropped;
 * - errors inside an answer (a file reference's `size`) are reported on the answer itself;
 * - errors inside a list's item are reported on that item's field (`/affiliatedPersons/0/ssn`),
 *   prefixed with the item's name and position ('Affiliated person 1: SSN required', spec
 *   business §5.5), the name being the `title` of the list's `items`;
 * - every message that applies to a field, in the order Ajv gives them (the schema's), one per
 *   failing keyword (a limit stated twice, by a base rule and a condition, is said once);
 *   fields in form order (uiSchema `ui:order`);
 * - a rule across answers (`x-rules`) at the place it names, a `contains` at the list alone.
 */
import type { ErrorObject } from 'ajv';
import type { RJSFSchema } from '@rjsf/utils';
import type { CompiledForm } from '../model/compiledForm';
import { escapePointerKey } from '../model/pointer';
import {
  allProperties,
  fieldsInOrder,
  isLeaf,
  itemsOf,
  objectItemsOf,
  objectParts,
} from '../walk/schemaWalk';
import { isPlainObject, type Answers, type JsonSchema, type UiSchema } from '../model/schemaTypes';
import type { ValidationResult } from '../model/types';
import { fromPointer, toPointer } from '../model/pointer';
import type { AnswerRuleProblem } from './answerRules';

/** Blank text (empty or spaces) and null count as no answer, as in the browser (rjsf drops ''). */
function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && !value.trim());
}

/**
 * Answers as validation sees them: blank answers removed, and every object the form requires
 * (an address) present, so its own required messages appear rather than one for the object. An
 * optional object left out stays out: JSON Schema accepts it absent, and its inner `required`
 * applies only once the person adds it.
 */
export function prepareAnswers(
  root: JsonSchema,
  answers: Answers,
  schema: JsonSchema = root,
): Answers {
  const out: Answers = {};
  for (const [key, value] of Object.entries(answers)) {
    if (!isBlank(value)) out[key] = value;
  }
  const { objects, lists, required } = nestedProperties(schema, root);
  // Every object the schema can show, conditions or not: an empty object where a condition
  // hides it is checked against nothing, and resolving conditions here (rjsf's retrieveSchema)
  // cost more than the whole validation.
  for (const [key, childSchema] of Object.entries(objects)) {
    if (out[key] === undefined && !required.has(key)) continue;
    const value = out[key] ?? {};
    if (isPlainObject(value)) out[key] = prepareAnswers(root, value, childSchema);
  }
  // Each item of a list of objects (an affiliated person) the same way.
  for (const [key, itemSchema] of Object.entries(lists)) {
    const value = out[key];
    if (!Array.isArray(value)) continue;
    out[key] = value.map((item: unknown) =>
      isPlainObject(item) ? prepareAnswers(root, item, itemSchema) : item,
    );
  }
  return out;
}

interface NestedProperties {
  /** Properties (own and conditional) that are objects holding answers (an address). */
  objects: Record<string, JsonSchema>;
  /** Lists whose items are such objects, by property, with their item schema. */
  lists: Record<string, JsonSchema>;
  /** The keys some part of the schema requires (its own, or a condition's, whichever holds). */
  required: Set<string>;
}

const nestedCache = new WeakMap<JsonSchema, NestedProperties>();

function nestedProperties(schema: JsonSchema, root: JsonSchema): NestedProperties {
  let found = nestedCache.get(schema);
  if (!found) {
    found = { objects: {}, lists: {}, required: new Set() };
    for (const part of objectParts(schema, root)) {
      for (const key of Array.isArray(part.required) ? part.required : []) found.required.add(key);
    }
    for (const [key, child] of Object.entries(allProperties(schema, root))) {
      const items = objectItemsOf(child, root);
      if (!isLeaf(child)) found.objects[key] = child;
      else if (items) found.lists[key] = items;
    }
    nestedCache.set(schema, found);
  }
  return found;
}

interface RawError {
  path: string;
  message: string;
  /** The keyword that failed: a keyword failing twice at one answer (two places state the same
   * limit, with different bounds) is one fact, said once. */
  keyword: string;
}

function translate(error: ErrorObject, defaults: Record<string, string>): RawError[] {
  if (error.keyword === 'if') return [];
  if (error.keyword === 'x-rules') {
    // Each broken rule across answers at its own place (`at`, from where the rule stands).
    const { problems } = error.params as { problems: AnswerRuleProblem[] };
    return problems.map(({ at, message }) => ({
      path: `${error.instancePath}${at}`,
      message,
      keyword: `x-rules ${message}`,
    }));
  }
  // A keyword without its own errorMessage takes the form's default (`x-messages`), never
  // Ajv's English: `forms check` requires one or the other for every keyword that can fail.
  const message =
    (error.keyword === 'errorMessage' ? error.message : defaults[error.keyword]) ??
    error.message ??
    '';
  let keyword = error.keyword;
  if (error.keyword === 'required') {
    // The form's default (`x-messages`) lands on the missing answer, as its own message would.
    const property = (error.params as { missingProperty: string }).missingProperty;
    return [{ path: `${error.instancePath}/${property}`, message, keyword }];
  }
  if (error.keyword === 'errorMessage') {
    const originals = (error.params as { errors?: ErrorObject[] }).errors ?? [];
    keyword = originals[0]?.keyword ?? keyword;
    const missing = originals.find((original) => original.keyword === 'required');
    if (missing) {
      const property = (missing.params as { missingProperty: string }).missingProperty;
      return [{ path: `${error.instancePath}/${property}`, message, keyword: 'required' }];
    }
    const key = originals.map(refusedKey).find((found) => found !== undefined);
    if (key !== undefined)
      return [{ path: `${error.instancePath}/${escapePointerKey(key)}`, message, keyword }];
  }
  const key = refusedKey(error);
  if (key !== undefined)
    return [{ path: `${error.instancePath}/${escapePointerKey(key)}`, message, keyword }];
  return [{ path: error.instancePath, message, keyword }];
}

/** The key an object refuses (a pattern or `propertyNames` broken): its message goes to its row. */
function refusedKey(error: ErrorObject): string | undefined {
  // A key's own failure inside `propertyNames` (its enum, its pattern) names the key too.
  if (typeof error.propertyName === 'string') return error.propertyName;
  const params = error.params as { additionalProperty?: unknown; propertyName?: unknown };
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return params.additionalProperty;
  }
  if (error.keyword === 'propertyNames' && typeof params.propertyName === 'string') {
    return params.propertyName;
  }
  return undefined;
}

/** Where a form's (or a list item's) answers are, in form order. */
interface Layout {
  leaves: Set<string>;
  rank: Map<string, number>;
  /** The lists among the leaves: their items' name and, for items that are objects, layout. */
  lists: Map<string, { itemName: string; item?: Layout }>;
}

function layoutOf(root: JsonSchema, uiSchema: UiSchema | undefined, start: JsonSchema): Layout {
  const fields = fieldsInOrder(root, uiSchema, start);
  const layout: Layout = {
    leaves: new Set(fields.filter((field) => field.leaf).map((field) => field.pointer)),
    rank: new Map(fields.map((field, index) => [field.pointer, index])),
    lists: new Map(),
  };
  for (const field of fields) {
    const items = field.leaf ? itemsOf(field.schema, root) : undefined;
    if (!items) continue;
    const objectItems = objectItemsOf(field.schema, root);
    const itemsUi = uiAt(uiSchema, [...field.keys, 'items']);
    layout.lists.set(field.pointer, {
      itemName: items.title ?? field.schema.title ?? field.keys.at(-1) ?? '',
      ...(objectItems ? { item: layoutOf(root, itemsUi, objectItems) } : {}),
    });
  }
  return layout;
}

function uiAt(uiSchema: UiSchema | undefined, keys: string[]): UiSchema | undefined {
  let node: unknown = uiSchema;
  for (const key of keys) node = isPlainObject(node) ? node[key] : undefined;
  return isPlainObject(node) ? node : undefined;
}

interface Location {
  /** The keys of the answer the error is about. */
  keys: string[];
  /** Its place in form order (list items: the list's rank, then position, then inner rank). */
  rank: number[];
  /** 'Affiliated person 1: ' for an answer inside a list's item. */
  prefix: string;
}

/** The answer a raw error path belongs to (a path inside a file reference → the file). */
function locate(keys: string[], layout: Layout): Location {
  for (let length = 1; length <= keys.length; length++) {
    const pointer = toPointer(keys.slice(0, length));
    if (!layout.leaves.has(pointer)) continue;
    const rank = layout.rank.get(pointer) ?? -1;
    const list = layout.lists.get(pointer);
    const index = keys[length];
    if (!list || index === undefined || !/^\d+$/.test(index)) {
      return { keys: keys.slice(0, length), rank: [rank], prefix: '' };
    }
    const position = Number(index);
    const prefix = `${list.itemName} ${position + 1}: `;
    const inner = list.item ? locate(keys.slice(length + 1), list.item) : undefined;
    return {
      keys: [...keys.slice(0, length + 1), ...(inner?.keys ?? [])],
      rank: [rank, position, ...(inner?.rank ?? [])],
      prefix: prefix + (inner?.prefix ?? ''),
    };
  }
  return { keys, rank: [-1], prefix: '' };
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? -1) - (b[i] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}

interface Located {
  path: string;
  prefix: string;
  rank: number[];
}

/** Located error paths by layout: a blank list of 50 persons repeats the same 500 paths. */
const locatedCache = new WeakMap<Layout, Map<string, Located>>();
/** Bounded, so hostile answers with ever new paths cannot grow it without end. */
const LOCATED_LIMIT = 20_000;

function locatePath(errorPath: string, layout: Layout): Located {
  let cache = locatedCache.get(layout);
  if (!cache) locatedCache.set(layout, (cache = new Map()));
  let located = cache.get(errorPath);
  if (!located) {
    const location = locate(fromPointer(errorPath), layout);
    located = { path: toPointer(location.keys), prefix: location.prefix, rank: location.rank };
    if (cache.size >= LOCATED_LIMIT) cache.clear();
    cache.set(errorPath, located);
  }
  return located;
}

const layoutCache = new WeakMap<JsonSchema, Layout>();

/** The form's layout, computed once per form. */
function formLayout(schema: JsonSchema, uiSchema: UiSchema): Layout {
  let layout = layoutCache.get(schema);
  if (!layout) {
    layout = layoutOf(schema, uiSchema, schema);
    layoutCache.set(schema, layout);
  }
  return layout;
}

/** Validates answers against a form with its validator: the same messages everywhere. */
export function validateAnswers(form: CompiledForm, answers: Answers): ValidationResult {
  const validator = form.validator;
  const prepared = prepareAnswers(form.schema, answers);
  const { errors = [] } = validator.rawValidation<ErrorObject>(form.schema as RJSFSchema, prepared);
  const layout = formLayout(form.schema, form.uiSchema);

  // Every message that applies, in the order Ajv gives them at a field (the schema's); one per
  // failing keyword, and the same words once.
  const byField = new Map<string, { messages: string[]; keywords: Set<string>; rank: number[] }>();
  const defaults = form.schema['x-messages'] ?? {};
  for (const error of errors.flatMap((each) => translate(each, defaults))) {
    const { path, prefix, rank } = locatePath(error.path, layout);
    const message = prefix + error.message;
    const field = byField.get(path);
    if (!field)
      byField.set(path, { messages: [message], keywords: new Set([error.keyword]), rank });
    else if (!field.messages.includes(message) && !field.keywords.has(error.keyword)) {
      field.messages.push(message);
      field.keywords.add(error.keyword);
    }
  }
  return {
    valid: byField.size === 0,
    errors: [...byField]
      .sort(([, a], [, b]) => compareRanks(a.rank, b.rank))
      .flatMap(([path, { messages, keywords }]) => {
        // The answer's own rules first, then the rules across answers that name it.
        const across = [...keywords].map((keyword) => keyword.startsWith('x-rules '));
        const ordered = messages
          .map((message, index) => ({ message, late: across[index] ?? false }))
          .sort((a, b) => Number(a.late) - Number(b.late));
        return ordered.map(({ message }) => ({ path, message }));
      }),
  };
}
