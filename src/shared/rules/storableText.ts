/**
 * Text PostgreSQL can store. A NUL character is refused by `text` and `jsonb` alike, and an
 * unpaired UTF-16 surrogate cannot be encoded as UTF-8 (`jsonb` refuses its `\ud800` escape), so
 * input carrying either is refused at the door rather than failing deep inside a query.
 */

import { escapePointerKey } from '../forms/model/pointer';

// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/**
 * The JSON pointer of the first string (value or object key) in `value` that is not storable, or
 * null. Walks iteratively, so a deeply nested body cannot overflow the stack.
 */
export function unstorableTextPath(value: unknown): string | null {
  // Every request's path, query and body pass here: the pointer is built only for a refusal.
  if (allStorable(value)) return null;
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop()!;
    if (typeof node === 'string') {
      if (!isStorableText(node)) return pointer || '/';
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push([item, `${pointer}/${index}`]));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        const child = `${pointer}/${escapePointerKey(key)}`;
        if (!isStorableText(key)) return child;
        stack.push([item, child]);
      }
    }
  }
  return null;
}

/** Whether every string in `value` (values and keys) is storable; no pointers are built. */
function allStorable(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (UNSTORABLE.test(node)) return false;
    } else if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (node !== null && typeof node === 'object') {
      for (const key of Object.keys(node)) {
        if (UNSTORABLE.test(key)) return false;
        stack.push((node as Record<string, unknown>)[key]);
      }
    }
  }
  return true;
}
