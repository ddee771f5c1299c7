/**
 * JSON pointers (RFC 6901) as every part of the portal writes and reads them: the place of an
 * answer (`/affiliatedPersons/0/ssn`), of a schema keyword, of a sealed value. Written once.
 */

/** One key as a pointer segment: `~` → `~0`, `/` → `~1`. */
export function escapePointerKey(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** One pointer segment back to its key. */
function unescapePointerKey(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The pointer of a path of keys ('' for the whole document). */
export function toPointer(keys: ReadonlyArray<string | number>): string {
  return keys.map((key) => `/${escapePointerKey(key)}`).join('');
}

/** The keys of a pointer ('' → []). */
export function fromPointer(pointer: string): string[] {
  if (!pointer) return [];
  return pointer.slice(1).split('/').map(unescapePointerKey);
}
