/**
 * Where a question is written in its schema: checks that walk the questions (a prompt missing,
 * an annotation misplaced) know an answer's path (`/affiliatedPersons/items/firstName`); the
 * file has it under `properties`, inside an `allOf`'s `then` or a definition a `$ref` names.
 * Said at the schema's own pointer, a problem opens at its line (issue 37 §4).
 */
import { isPlainObject } from '../model/schemaTypes';
import { fromPointer, toPointer } from '../model/pointer';

const BRANCHES = ['allOf', 'anyOf', 'oneOf'] as const;
const CONDITIONS = ['if', 'then', 'else'] as const;

/** The schema pointer of the question at `path` (its keys; `items` a list's item), if found. */
function findQuestion(root: unknown, path: string[]): string[] | undefined {
  const seen = new Set<string>();
  const search = (node: unknown, at: string[], rest: string[]): string[] | undefined => {
    if (!isPlainObject(node)) return undefined;
    if (rest.length === 0) return at;
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#') && !seen.has(`${ref} ${rest.join('/')}`)) {
      seen.add(`${ref} ${rest.join('/')}`);
      const target = fromPointer(ref.slice(1));
      const found = search(valueAt(root, target), target, rest);
      if (found) return found;
    }
    const [next = '', ...after] = rest;
    if (next === 'items' && isPlainObject(node.items)) {
      const found = search(node.items, [...at, 'items'], after);
      if (found) return found;
    }
    if (isPlainObject(node.properties) && next in node.properties) {
      const found = search(node.properties[next], [...at, 'properties', next], after);
      if (found) return found;
    }
    for (const key of BRANCHES) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      for (const [i, item] of list.entries()) {
        const found = search(item, [...at, key, String(i)], rest);
        if (found) return found;
      }
    }
    for (const key of CONDITIONS) {
      const found = search(node[key], [...at, key], rest);
      if (found) return found;
    }
    for (const key of ['dependencies', 'dependentSchemas']) {
      const map = node[key];
      if (!isPlainObject(map)) continue;
      for (const [name, child] of Object.entries(map)) {
        const found = search(child, [...at, key, name], rest);
        if (found) return found;
      }
    }
    return undefined;
  };
  return search(root, [], path);
}

function valueAt(root: unknown, keys: string[]): unknown {
  let node = root;
  for (const key of keys)
    node = isPlainObject(node) || Array.isArray(node) ? (node as never)[key] : undefined;
  return node;
}

/**
 * The schema pointer of an answer's path, or of an annotation on that answer (a path ending in
 * an `x-…` keyword: found where it is written, behind the answer's `$ref` when there). The path
 * as it came when the schema has no such question.
 */
export function schemaPointer(root: unknown, answerPointer: string): string {
  const keys = fromPointer(answerPointer);
  const keyword = keys.at(-1)?.startsWith('x-') ? keys.pop() : undefined;
  let found = findQuestion(root, keys);
  if (!found) return answerPointer;
  if (keyword !== undefined) {
    let node = valueAt(root, found);
    for (let hops = 0; hops < 10 && isPlainObject(node) && !(keyword in node); hops++) {
      if (typeof node.$ref !== 'string' || !node.$ref.startsWith('#')) break;
      found = fromPointer(node.$ref.slice(1));
      node = valueAt(root, found);
    }
    found = [...found, keyword];
  }
  return toPointer(found);
}
