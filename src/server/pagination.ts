/**
 * Opaque cursors for keyset pagination (issue 40 §6). A cursor is the base64url of a JSON array:
 * the list's name, then the sort key of the last item answered (e.g. its creation time in
 * microseconds and its id). The next page is the rows strictly after that key in the list's
 * order, so a row added or removed meanwhile neither repeats nor skips another, and the cost of a
 * page does not grow with its depth as an offset's does.
 *
 * A cursor is checked against the shape its list expects (its name, each part's kind); anything
 * else answers 400 with `errorMessage`. A well-formed cursor edited by hand is only another place
 * in the same list: the query that reads it still applies every rule of who may see what.
 */
import { isUuid } from '../shared/api/http';
import type { Page } from '../shared/api/pagination';
import { badRequest } from './errors';

/**
 * The kind of one part of a sort key: `uuid`; `int`, a decimal integer kept as a string (a
 * bigint such as a time in microseconds, which a JavaScript number would round); `text`.
 */
export type CursorPartKind = 'uuid' | 'int' | 'text';

/** A sort key: one string per part, in the order of the list's `order by`. */
type CursorKey = readonly string[];

/** A list's cursor: its name (a cursor of another list is refused) and its key's parts. */
export interface CursorShape {
  list: string;
  parts: readonly CursorPartKind[];
}

const INVALID = 'The cursor is not one this list answered. Start again from the first page.';
const INT = /^-?\d{1,20}$/;

const partFits = (kind: CursorPartKind, value: unknown): value is string =>
  typeof value === 'string' &&
  value.length <= 200 &&
  (kind === 'uuid' ? isUuid(value) : kind === 'int' ? INT.test(value) : true);

/** The cursor that names `key` as the last item answered of the list. */
export function encodeCursor(shape: CursorShape, key: CursorKey): string {
  if (key.length !== shape.parts.length || !shape.parts.every((kind, i) => partFits(kind, key[i])))
    throw new Error(`${shape.list}: a cursor key does not fit its shape`);
  return Buffer.from(JSON.stringify([shape.list, ...key])).toString('base64url');
}

/**
 * The sort key a cursor names, or null without one (the first page). Anything not made by
 * `encodeCursor` for this list answers 400 with `errorMessage`.
 */
export function decodeCursor(shape: CursorShape, cursor: string | undefined): CursorKey | null {
  if (cursor === undefined) return null;
  let decoded: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(INVALID, { cursor: 'Not a cursor of this list' });
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== shape.parts.length + 1 ||
    decoded[0] !== shape.list ||
    !shape.parts.every((kind, i) => partFits(kind, decoded[i + 1]))
  ) {
    throw badRequest(INVALID, { cursor: 'Not a cursor of this list' });
  }
  return decoded.slice(1) as string[];
}

/**
 * One page from rows read with `limit + 1` (the extra row only tells that another page follows):
 * at most `limit` items, and the cursor of the last one when more remain.
 */
export function pageOf<Row, Item>(
  rows: readonly Row[],
  limit: number,
  shape: CursorShape,
  keyOf: (row: Row) => CursorKey,
  toItem: (row: Row) => Item,
): Page<Item> {
  const kept = rows.slice(0, limit);
  const last = kept[kept.length - 1];
  return {
    data: kept.map(toItem),
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(shape, keyOf(last)) : null,
  };
}
