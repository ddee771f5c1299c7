/**
 * Reading a bundled form schema: local references, the schema in force for given answers
 * (if/then resolved the way rjsf resolves it), and the fields in form order.
 */
import { retrieveSchema, type RJSFSchema } from '@rjsf/utils';
import { isPlainObject, type Answers, type JsonSchema, type UiSchema } from '../model/schemaTypes';
import type { FormValidator } from '../model/schemaTypes';
import { fromPointer, toPointer } from '../model/pointer';

/** A JSON pointer inside the bundled schema (`#/$defs/address`, `#/definitions/x`), or undefined. */
export function pointerTarget(ref: string, root: JsonSchema): JsonSchema | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const key of fromPointer(ref.slice(1))) {
    node = Array.isArray(node) ? node[Number(key)] : isPlainObject(node) ? node[key] : undefined;
  }
  return isPlainObject(node) ? (node as JsonSchema) : undefined;
}

/**
 * Follows a local reference (`#/$defs/…`, `#/definitions/…`, any `#/` pointer), siblings
 * merged over the target; a chain of references is followed, a cycle of bare references (which
 * no answer could satisfy) stops with an error. `forms check` refuses any other reference.
 */
export function deref(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined; hops++) {
    if (hops > 32) throw new Error(`Reference cycle at ${schema.$ref}`);
    const target = pointerTarget(current.$ref, root);
    if (!target) throw new Error(`Unresolved reference ${current.$ref}`);
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...siblings };
    // Questions beside a reference add to the target's (JSON Schema applies both).
    if (target.properties && siblings.properties) {
      current.properties = { ...target.properties, ...siblings.properties };
    }
    if (Array.isArray(target.required) && Array.isArray(siblings.required)) {
      current.required = [...new Set([...target.required, ...siblings.required])];
    }
  }
  return current;
}

/** The schema in force for `data`: conditions resolved, references followed. */
export function resolveFor(
  validator: FormValidator,
  schema: JsonSchema,
  root: JsonSchema,
  data: unknown,
): JsonSchema {
  const resolved = retrieveSchema(
    validator,
    schema as RJSFSchema,
    root as RJSFSchema,
    (data ?? {}) as Answers,
  ) as JsonSchema;
  return deref(resolved, root);
}

const SIMPLE_CONDITION_KEYS = new Set(['required', 'properties', '$comment', 'type']);

/**
 * A condition of the kind the forms use (`required`, and per property `const`, `enum`,
 * `exclusiveMinimum`, `minimum`), decided without Ajv; undefined for anything else. JSON Schema's
 * rules: an absent property passes its sub-schema, a number keyword passes a non-number.
 */
export function simpleCondition(condition: JsonSchema, data: unknown): boolean | undefined {
  if (!isPlainObject(data)) return undefined;
  for (const key of Object.keys(condition)) if (!SIMPLE_CONDITION_KEYS.has(key)) return undefined;
  if (condition.type !== undefined && condition.type !== 'object') return undefined;
  for (const key of condition.required ?? []) if (data[key] === undefined) return false;
  for (const [key, rule] of Object.entries(condition.properties ?? {})) {
    if (data[key] === undefined) continue;
    const value = data[key];
    for (const [keyword, expected] of Object.entries(rule)) {
      if (keyword === 'const') {
        if (value !== expected && JSON.stringify(value) !== JSON.stringify(expected)) return false;
      } else if (keyword === 'enum' && Array.isArray(expected)) {
        if (!expected.some((option) => option === value)) return false;
      } else if (keyword === 'exclusiveMinimum' && typeof expected === 'number') {
        if (typeof value === 'number' && !(value > expected)) return false;
      } else if (keyword === 'minimum' && typeof expected === 'number') {
        if (typeof value === 'number' && !(value >= expected)) return false;
      } else if (keyword !== '$comment') {
        return undefined;
      }
    }
  }
  return true;
}

/** Whether `data` meets an `if`: decided directly when simple, else by the form's validator. */
function conditionHolds(
  validator: FormValidator,
  condition: JsonSchema,
  root: JsonSchema,
  data: unknown,
): boolean {
  return (
    simpleCondition(condition, data) ??
    validator.isValid(condition as RJSFSchema, (data ?? {}) as Answers, root as RJSFSchema)
  );
}

/**
 * The properties in force for `data`: the schema's own, plus those of each `if`'s `then` or
 * `else` as the condition holds (at the top and in `allOf`), references followed. What
 * `resolveFor(…).properties` gives for the forms' conditions, without rjsf's general (and, at 50
 * affiliated persons, slow) schema resolution.
 */
export function propertiesInForce(
  validator: FormValidator,
  schema: JsonSchema,
  root: JsonSchema,
  data: unknown,
): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const part of partsInForce(validator, schema, root, data)) {
    for (const [key, child] of Object.entries(part.properties ?? {})) {
      out[key] = out[key] ? { ...out[key], ...child } : child;
    }
  }
  return out;
}

/**
 * A choice among given values (`enum`, `const`, or a `oneOf`/`anyOf` of `{const, title}`
 * options): one answer, whatever the values are, objects included.
 */
export function isChoice(schema: JsonSchema): boolean {
  if (Array.isArray(schema.enum) || schema.const !== undefined) return true;
  if (schema.properties) return false;
  const options = schema.oneOf ?? schema.anyOf;
  return Array.isArray(options) && options.length > 0 && options.every(isChoiceOption);
}

/** A file reference, a choice or any non-object schema is one answer; objects hold answers. */
export function isLeaf(schema: JsonSchema): boolean {
  if (schema['x-file'] !== undefined || isChoice(schema)) return true;
  if (schema.type !== undefined) return schema.type !== 'object';
  // No type: an object when it says what properties it has (rjsf draws it as one).
  return !(
    schema.properties ||
    schema.patternProperties ||
    isPlainObject(schema.additionalProperties)
  );
}

/** The schema of each item of a list (references followed), or undefined when not a list. */
export function itemsOf(schema: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  const resolved = deref(schema, root);
  if (resolved.type !== 'array' || !isPlainObject(resolved.items)) return undefined;
  return deref(resolved.items as JsonSchema, root);
}

/**
 * The schema of item `index` of a list: a tuple's own (`items` as an array, then
 * `additionalItems`), or the list's `items`; references followed.
 */
export function itemSchemaAt(
  schema: JsonSchema,
  index: number,
  root: JsonSchema,
): JsonSchema | undefined {
  const resolved = deref(schema, root);
  if (Array.isArray(resolved.items)) {
    const own = resolved.items[index];
    if (isPlainObject(own)) return deref(own as JsonSchema, root);
    const more = resolved.additionalItems;
    return isPlainObject(more) ? deref(more as JsonSchema, root) : undefined;
  }
  return isPlainObject(resolved.items) ? deref(resolved.items as JsonSchema, root) : undefined;
}

/**
 * Whether a list's items are answers of their own (each sent with its prompt): a tuple's, or
 * records' (an affiliated person). A list of plain values (a multi-select) is one answer.
 */
export function listItemsAnswered(schema: JsonSchema, root: JsonSchema): boolean {
  const resolved = deref(schema, root);
  if (resolved.type !== 'array' && resolved.items === undefined) return false;
  if (Array.isArray(resolved.items)) return true;
  const items = itemSchemaAt(resolved, 0, root);
  return !!items && !isLeaf(items);
}

/** The payload sections of a form: its `x-sections`, or one section `answers` when it has none. */
export function sectionsOf(root: JsonSchema): Record<string, string> {
  const sections = root['x-sections'];
  return sections && Object.keys(sections).length > 0 ? sections : { answers: '/answers' };
}

/** The item schema of a list whose items are objects holding answers (affiliated persons). */
export function objectItemsOf(schema: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  const items = itemsOf(schema, root);
  return items && !isLeaf(items) ? items : undefined;
}

const allPropertiesCache = new WeakMap<
  JsonSchema,
  WeakMap<JsonSchema, Record<string, JsonSchema>>
>();

/**
 * Every property a schema can ever show: its own and those of if/then/else branches. Cached per
 * schema object (a loaded form's objects are stable; callers must not mutate the result).
 */
export function allProperties(schema: JsonSchema, root: JsonSchema): Record<string, JsonSchema> {
  let byRoot = allPropertiesCache.get(schema);
  if (!byRoot) allPropertiesCache.set(schema, (byRoot = new WeakMap()));
  let found = byRoot.get(root);
  if (!found) byRoot.set(root, (found = collectProperties(schema, root)));
  return found;
}

function collectProperties(schema: JsonSchema, root: JsonSchema): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const part of objectParts(schema, root)) {
    for (const [key, child] of Object.entries(part.properties ?? {})) {
      out[key] = out[key] ? { ...deref(child, root), ...out[key] } : deref(child, root);
    }
  }
  return out;
}

/**
 * Every part of an object schema whose properties it may show, whatever the answers: itself,
 * its `allOf` parts, both branches of each `if`, every `oneOf`/`anyOf` option, every schema
 * dependency (`dependencies`, `dependentSchemas`), references followed, each part once.
 */
export function objectParts(schema: JsonSchema, root: JsonSchema): JsonSchema[] {
  const out: JsonSchema[] = [];
  const seen = new Set<JsonSchema>();
  const visit = (part: unknown) => {
    if (!isPlainObject(part)) return;
    const resolved = deref(part as JsonSchema, root);
    if (seen.has(part as JsonSchema) || out.length > 500) return;
    seen.add(part as JsonSchema);
    out.push(resolved);
    for (const child of subSchemas(resolved)) visit(child);
  };
  visit(schema);
  return out;
}

/** The parts an object schema is made of beyond its own properties (combinators, conditions). */
function subSchemas(schema: JsonSchema): unknown[] {
  const dependencies = [
    ...Object.values(isPlainObject(schema.dependencies) ? schema.dependencies : {}),
    ...Object.values(isPlainObject(schema.dependentSchemas) ? schema.dependentSchemas : {}),
  ].filter((value) => !Array.isArray(value));
  return [
    ...(schema.allOf ?? []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(schema.oneOf ?? []).filter((option) => !isChoiceOption(option)),
    schema.then,
    schema.else,
    ...dependencies,
  ];
}

/** An option of a choice (`{const, title}`) rather than a part of an object. */
const isChoiceOption = (option: JsonSchema) =>
  option.const !== undefined && !option.properties && !option.required;

/** The schema of an answer at `key` of an object: a property, a pattern, or additional ones. */
export function childSchema(
  parts: readonly JsonSchema[],
  key: string,
  root: JsonSchema,
): JsonSchema | undefined {
  for (const part of parts) {
    const property = part.properties?.[key];
    if (property) return deref(property, root);
  }
  for (const part of parts) {
    for (const [pattern, child] of Object.entries(patternPropertiesOf(part))) {
      if (safeRegExp(pattern)?.test(key)) return deref(child, root);
    }
  }
  for (const part of parts) {
    if (isPlainObject(part.additionalProperties)) {
      return deref(part.additionalProperties as JsonSchema, root);
    }
  }
  return undefined;
}

const patternPropertiesOf = (schema: JsonSchema): Record<string, JsonSchema> =>
  isPlainObject(schema.patternProperties)
    ? (schema.patternProperties as Record<string, JsonSchema>)
    : {};

const regExps = new Map<string, RegExp | undefined>();
/** A form's pattern compiled once (Unicode, as Ajv does); undefined when it does not compile. */
export function safeRegExp(pattern: string): RegExp | undefined {
  if (!regExps.has(pattern)) {
    let compiled: RegExp | undefined;
    try {
      compiled = new RegExp(pattern, 'u');
    } catch {
      compiled = undefined;
    }
    regExps.set(pattern, compiled);
  }
  return regExps.get(pattern);
}

/**
 * The parts of an object schema in force for `data` (rjsf's `retrieveSchema` in spirit): the
 * schema, its `allOf` parts, the `then` or `else` of each `if` as it holds, the `oneOf`/`anyOf`
 * option the answers match (the first valid one; else the one sharing most answered keys), the
 * schema dependencies of answered keys. References followed; each part once.
 */
export function partsInForce(
  validator: FormValidator,
  schema: JsonSchema,
  root: JsonSchema,
  data: unknown,
): JsonSchema[] {
  const out: JsonSchema[] = [];
  const seen = new Set<JsonSchema>();
  const answers = isPlainObject(data) ? data : {};
  const visit = (part: unknown) => {
    if (!isPlainObject(part) || seen.has(part as JsonSchema) || out.length > 500) return;
    seen.add(part as JsonSchema);
    const resolved = deref(part as JsonSchema, root);
    out.push(resolved);
    (resolved.allOf ?? []).forEach(visit);
    if (resolved.if) {
      visit(conditionHolds(validator, resolved.if, root, data) ? resolved.then : resolved.else);
    }
    for (const options of [resolved.oneOf, resolved.anyOf]) {
      if (!Array.isArray(options)) continue;
      const parts = options.filter((option: JsonSchema) => !isChoiceOption(option));
      if (parts.length > 0) visit(matchingOption(validator, parts, root, answers));
    }
    for (const dependencies of [resolved.dependencies, resolved.dependentSchemas]) {
      if (!isPlainObject(dependencies)) continue;
      for (const [key, dependency] of Object.entries(dependencies)) {
        if (answers[key] !== undefined && !Array.isArray(dependency)) visit(dependency);
      }
    }
  };
  visit(schema);
  return out;
}

/** The option answers are for: the first they satisfy, else the one naming most of their keys. */
function matchingOption(
  validator: FormValidator,
  options: JsonSchema[],
  root: JsonSchema,
  answers: Record<string, unknown>,
): JsonSchema | undefined {
  const valid = options.find((option) => conditionHolds(validator, option, root, answers));
  if (valid) return valid;
  let best: JsonSchema | undefined;
  let bestScore = -1;
  for (const option of options) {
    const parts = objectParts(option, root);
    const score = Object.keys(answers).filter((key) =>
      parts.some((part) => part.properties?.[key] !== undefined),
    ).length;
    if (score > bestScore) [best, bestScore] = [option, score];
  }
  return best;
}

/** Orders keys as `ui:order` does (a `*` entry takes the unlisted ones; without it they go last). */
export function orderKeys(keys: string[], uiSchema: UiSchema | undefined): string[] {
  const order = uiSchema?.['ui:order'];
  if (!Array.isArray(order)) return keys;
  const star = order.indexOf('*');
  const pick = (items: unknown[]) =>
    items.filter((key): key is string => typeof key === 'string' && keys.includes(key));
  const before = pick(star === -1 ? order : order.slice(0, star));
  const after = pick(star === -1 ? [] : order.slice(star + 1));
  const rest = keys.filter((key) => !before.includes(key) && !after.includes(key));
  return [...before, ...rest, ...after];
}

export interface FieldInfo {
  /** JSON pointer of the answer. */
  pointer: string;
  schema: JsonSchema;
  /** The property name path. */
  keys: string[];
  /** True for answers (leaves), false for objects holding answers. */
  leaf: boolean;
}

/**
 * Every field a form can show, depth first in form order (uiSchema `ui:order`); from `start` (a
 * list's item schema, with the item's uiSchema) instead of the whole form when given.
 */
export function fieldsInOrder(
  root: JsonSchema,
  uiSchema: UiSchema | undefined,
  start: JsonSchema = root,
): FieldInfo[] {
  const out: FieldInfo[] = [];
  const walk = (schema: JsonSchema, ui: UiSchema | undefined, keys: string[]) => {
    // Forms never hold themselves (bundleForm refuses a recursive reference); the depth limit
    // only guards a schema handed in from elsewhere.
    if (keys.length > MAX_FIELD_DEPTH) return;
    const properties = allProperties(schema, root);
    for (const key of orderKeys(Object.keys(properties), ui)) {
      const child = properties[key]!;
      const path = [...keys, key];
      const leaf = isLeaf(child);
      out.push({ pointer: toPointer(path), schema: child, keys: path, leaf });
      const childUi = ui?.[key];
      if (!leaf) walk(child, isPlainObject(childUi) ? childUi : undefined, path);
    }
  };
  walk(start, uiSchema, []);
  return out;
}

const MAX_FIELD_DEPTH = 12;
