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
