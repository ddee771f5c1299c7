/**
 * Reading a bundled form schema: local references, the schema in force for given answers
 * (if/then resolved the way rjsf resolves it), and the fields in form order.
 */
import { retrieveSchema, type RJSFSchema } from '@rjsf/utils';
import { isPlainObject, type Answers, type JsonSchema, type UiSchema } from './schemaTypes';
import type { FormValidator } from './validators';

/** Follows a local `#/$defs/…` reference (one level of siblings merged over the target). */
export function deref(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (!ref) return schema;
  const name = ref.replace(/^#\/\$defs\//, '');
  const target = root.$defs?.[name];
  if (!target) throw new Error(`Unresolved reference ${ref}`);
  const { $ref: _ref, ...siblings } = schema;
  return { ...deref(target, root), ...siblings };
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

const SIMPLE_CONDITION_KEYS = new Set(['required', 'properties', '$comment']);

/**
 * A condition of the kind the forms use (`required`, and per property `const`, `enum`,
 * `exclusiveMinimum`, `minimum`), decided without Ajv; undefined for anything else. JSON Schema's
 * rules: an absent property passes its sub-schema, a number keyword passes a non-number.
 */
function simpleCondition(condition: JsonSchema, data: unknown): boolean | undefined {
  if (!isPlainObject(data)) return undefined;
  for (const key of Object.keys(condition)) if (!SIMPLE_CONDITION_KEYS.has(key)) return undefined;
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
  const resolved = deref(schema, root);
  const out: Record<string, JsonSchema> = { ...(resolved.properties ?? {}) };
  const add = (part: JsonSchema | undefined) => {
    for (const [key, child] of Object.entries(part?.properties ?? {})) {
      out[key] = out[key] ? { ...out[key], ...child } : child;
    }
  };
  for (const part of [resolved, ...(resolved.allOf ?? [])]) {
    if (part !== resolved && !part.if) add(part);
    if (!part.if) continue;
    add(conditionHolds(validator, part.if, root, data) ? part.then : part.else);
  }
  return out;
}

/** A file reference or any non-object schema is one answer; objects hold answers. */
export function isLeaf(schema: JsonSchema): boolean {
  return schema.type !== 'object' || schema['x-file'] !== undefined;
}

/** The schema of each item of a list (references followed), or undefined when not a list. */
export function itemsOf(schema: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  const resolved = deref(schema, root);
  if (resolved.type !== 'array' || !isPlainObject(resolved.items)) return undefined;
  return deref(resolved.items as JsonSchema, root);
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
  const resolved = deref(schema, root);
  const out: Record<string, JsonSchema> = {};
  const add = (part: JsonSchema | undefined) => {
    if (!part) return;
    for (const [key, child] of Object.entries(part.properties ?? {})) {
      out[key] = out[key] ? { ...deref(child, root), ...out[key] } : deref(child, root);
    }
  };
  add(resolved);
  for (const part of [resolved, ...(resolved.allOf ?? [])]) {
    add(part.then);
    add(part.else);
  }
  return out;
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

export function toPointer(keys: readonly string[]): string {
  return keys.map((key) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

export function fromPointer(pointer: string): string[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}
