/**
 * Recursive references (a `$ref` that reaches a schema containing it: a tree of `children`, a
 * person whose `mother` is a person). The walker, the review and rjsf's defaults all expand a
 * form's questions, so a form that holds itself would never finish being drawn or checked; the
 * engine refuses it when the form is bundled, with a sentence saying what to write instead.
 */
import { isPlainObject, type JsonSchema } from '../model/schemaTypes';
import { fromPointer, toPointer } from '../model/pointer';

/** Keywords whose values are data or annotations, never schemas. */
const NOT_SCHEMAS = new Set(['enum', 'const', 'default', 'examples', 'errorMessage']);
/** Keywords whose values map names (of answers, definitions) to schemas. */
const NAMED_SCHEMAS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependencies',
  'dependentSchemas',
]);

interface RecursiveReference {
  /** JSON pointer of the `$ref` in the bundled schema. */
  pointer: string;
  /** The reference as written (`#/$defs/node`). */
  ref: string;
}

/** The first local reference that leads back into a schema containing it, or undefined. */
export function findRecursiveReference(root: JsonSchema): RecursiveReference | undefined {
  const expanded = new Set<string>();
  // `trail`: where each reference followed so far stands; a target at or above any of them (or
  // above where the walk is now) contains the reference that reaches it.
  const visit = (
    node: unknown,
    at: string,
    trail: string[],
    named = false,
  ): RecursiveReference | undefined => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) {
        const found = visit(item, `${at}/${index}`, trail);
        if (found) return found;
      }
      return undefined;
    }
    if (!isPlainObject(node)) return undefined;
    const ref = node.$ref;
    if (typeof ref === 'string' && (ref === '#' || ref.startsWith('#/'))) {
      const target = toPointer(fromPointer(ref.slice(1)));
      const here = [...trail, at];
      if (here.some((place) => place === target || place.startsWith(`${target}/`))) {
        return { pointer: `${at}/$ref`, ref };
      }
      if (!expanded.has(target)) {
        const found = visit(nodeAt(root, target), target, here);
        if (found) return found;
        expanded.add(target);
      }
    }
    for (const [key, value] of Object.entries(node)) {
      // Under `properties` and the like a key is a name, whatever it spells.
      if (!named && (key === '$ref' || NOT_SCHEMAS.has(key) || key.startsWith('x-'))) continue;
      const place = `${at}${toPointer([key])}`;
      const found = visit(value, place, trail, !named && NAMED_SCHEMAS.has(key));
      if (found) return found;
    }
    return undefined;
  };
  return visit(root, '', []);
}

function nodeAt(root: JsonSchema, pointer: string): unknown {
  let node: unknown = root;
  for (const key of fromPointer(pointer)) {
    node = Array.isArray(node) ? node[Number(key)] : isPlainObject(node) ? node[key] : undefined;
  }
  return node;
}

/** The sentence `forms check` (and a server or build refusing the form) says for it. */
export function recursiveReferenceMessage({ ref }: RecursiveReference): string {
  return (
    `the reference ${ref} leads back into the schema that holds it (a form that contains ` +
    'itself, such as a tree of children), which the engine cannot draw or check: write out ' +
    'the levels you ask, each its own definition (a list of children whose items are ' +
    '#/$defs/child, a definition with no children of its own)'
  );
}
