/**
 * The keys a person may give an answer they add to an object (`patternProperties`,
 * `additionalProperties`, `propertyNames`), as the form's validator will judge them: the page
 * checks a key before it takes it, so an answer is never kept under a key the form refuses (rjsf
 * would keep it on screen and drop it from the answers).
 */
import type { JsonSchema } from '../model/schemaTypes';
import { isPlainObject } from '../model/schemaTypes';
import { safeRegExp } from './schemaWalk';

/** Why a key is refused: the keyword whose message the person reads, or a declared question's. */
export type KeyRefusal = 'declared' | 'additionalProperties' | 'propertyNames';

/** `schema` is the object's, its references and combinators resolved (rjsf's `retrieveSchema`). */
export function keyRefusal(schema: JsonSchema, key: string): KeyRefusal | undefined {
  if (isPlainObject(schema.properties) && Object.hasOwn(schema.properties, key)) {
    return 'declared';
  }
  if (!namesAllow(schema.propertyNames, key)) return 'propertyNames';
  const patterns = isPlainObject(schema.patternProperties)
    ? Object.keys(schema.patternProperties)
    : [];
  if (patterns.some((pattern) => safeRegExp(pattern)?.test(key))) return undefined;
  // rjsf keeps no answer under a key that neither a pattern nor an additional schema covers.
  return isPlainObject(schema.additionalProperties) ? undefined : 'additionalProperties';
}

/** The keys `propertyNames` allows, when it lists them (`enum`, or `oneOf`/`anyOf` consts). */
export function namedKeys(schema: JsonSchema): string[] | undefined {
  const names = schema.propertyNames;
  if (!isPlainObject(names)) return undefined;
  if (Array.isArray(names.enum)) return names.enum.filter((v) => typeof v === 'string');
  const options = (names.oneOf ?? names.anyOf) as unknown;
  if (!Array.isArray(options)) return undefined;
  const consts = options.map((option) =>
    isPlainObject(option) && typeof option.const === 'string' ? option.const : undefined,
  );
  return consts.every((c) => c !== undefined) ? (consts as string[]) : undefined;
}

function namesAllow(names: unknown, key: string): boolean {
  if (!isPlainObject(names)) return true;
  const listed = namedKeys({ propertyNames: names } as JsonSchema);
  if (listed && !listed.includes(key)) return false;
  if (typeof names.pattern === 'string' && !safeRegExp(names.pattern)?.test(key)) return false;
  if (typeof names.maxLength === 'number' && [...key].length > names.maxLength) return false;
  if (typeof names.minLength === 'number' && [...key].length < names.minLength) return false;
  return true;
}

/**
 * A key for a new answer that the form accepts: one `propertyNames` lists, or one a pattern
 * matches (its literal start, then 'new', 'a', '1'…), numbered past the keys `taken`; undefined
 * when none is found (the person names it).
 */
export function newKey(schema: JsonSchema, taken: readonly string[]): string | undefined {
  const fits = (key: string) => !taken.includes(key) && keyRefusal(schema, key) === undefined;
  const listed = namedKeys(schema);
  if (listed) return listed.find(fits);
  const patterns = isPlainObject(schema.patternProperties)
    ? Object.keys(schema.patternProperties)
    : [];
  const stems = ['newKey', ...patterns.flatMap(patternStems)];
  for (const stem of stems) {
    for (let n = 0; n < 50; n++) {
      const key = n === 0 ? stem : `${stem}${n}`;
      if (fits(key)) return key;
      if (n === 0 && fits(`${stem}-1`)) return `${stem}-1`;
    }
  }
  return undefined;
}

/** Candidate keys from a pattern's literal start ('^x-' gives 'x-new', 'x-a', 'x-1'). */
function patternStems(pattern: string): string[] {
  const literal = /^\^?((?:\\.|[^\\^$.|?*+()[\]{}])*)/.exec(pattern)?.[1] ?? '';
  const start = literal.replace(/\\(.)/g, '$1');
  return ['new', 'a', '1', 'A', ''].map((tail) => `${start}${tail}`).filter(Boolean);
}
