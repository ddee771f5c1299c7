import { isPlainObject, type Answers, type JsonSchema } from './schemaTypes';

/** Where `x-prefill` values come from: `user.email` reads `{user: {email}}`. */
export type PrefillSource = Record<string, unknown>;

/**
 * The answers a form fills in itself: each top-level property annotated `x-prefill` (a dotted
 * path such as `user.email`) gets the value at that path of `source`, when it is a string.
 * Pure, for the browser and the server alike.
 */
export function prefillAnswers(schema: JsonSchema, source: PrefillSource): Answers {
  const out: Answers = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const path = isPlainObject(property) ? property['x-prefill'] : undefined;
    if (typeof path !== 'string') continue;
    let value: unknown = source;
    for (const part of path.split('.')) value = isPlainObject(value) ? value[part] : undefined;
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}
