/**
 * The title of the option a choice's answer picked, written once for the payload (the `label`
 * sent beside the value) and the review (the text shown): the screen, the payload and the console
 * say the same "Green" for `#00ff00`.
 */
import { deref } from '../walk/schemaWalk';
import { isPlainObject, type JsonSchema, type UiSchema } from './schemaTypes';

/** Equal answers: the same value, or objects (a choice whose values are objects) alike. */
const sameAnswer = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));

/**
 * The title of a choice's option: a `oneOf`/`anyOf` of `{const, title}` (options behind `$ref`
 * followed, when `root` is given), or an `enum` named by the uiSchema's `ui:enumNames`.
 */
export function optionTitle(
  schema: JsonSchema,
  value: unknown,
  ui?: UiSchema,
  root?: JsonSchema,
): string | undefined {
  const resolved = root ? deref(schema, root) : schema;
  for (const options of [resolved.oneOf, resolved.anyOf]) {
    if (!Array.isArray(options)) continue;
    for (const candidate of options as unknown[]) {
      if (!isPlainObject(candidate)) continue;
      const option = root ? deref(candidate as JsonSchema, root) : (candidate as JsonSchema);
      if (sameAnswer(option.const, value) && typeof option.title === 'string') return option.title;
    }
  }
  const names = ui?.['ui:enumNames'];
  if (Array.isArray(resolved.enum) && Array.isArray(names)) {
    const name: unknown =
      names[resolved.enum.findIndex((option: unknown) => sameAnswer(option, value))];
    if (typeof name === 'string') return name;
  }
  return undefined;
}

/**
 * The titles of the options a list of choices picked (a multi-select, its items a choice behind
 * `$ref` or `anyOf`), joined as the review shows them; undefined when no item has one.
 */
export function optionTitles(
  schema: JsonSchema,
  values: readonly unknown[],
  ui?: UiSchema,
  root?: JsonSchema,
): string | undefined {
  const resolved = root ? deref(schema, root) : schema;
  const items = isPlainObject(resolved.items) ? (resolved.items as JsonSchema) : undefined;
  if (!items) return undefined;
  const itemsUi = isPlainObject(ui?.items) ? ui.items : undefined;
  const titles = values.map((value) => optionTitle(items, value, itemsUi, root));
  if (titles.every((title) => title === undefined)) return undefined;
  return titles.map((title, index) => title ?? String(values[index])).join(', ');
}

/** The uiSchema of the answer at `keys` (a list item's position reads the list's `items`). */
export function uiAtKeys(uiSchema: UiSchema, keys: readonly string[]): UiSchema | undefined {
  let node: unknown = uiSchema;
  for (const key of keys) {
    if (!isPlainObject(node)) return undefined;
    node = /^\d+$/.test(key) && !(key in node) ? node.items : node[key];
  }
  return isPlainObject(node) ? node : undefined;
}
