import { describe, expect, it } from 'vitest';
import { ClientError } from '../../../src/server/errors';
import {
  decodeCursor,
  encodeCursor,
  pageOf,
  type CursorShape,
} from '../../../src/server/pagination';

const users: CursorShape = { list: 'users', parts: ['int', 'uuid'] };
const ID = '0b6f3c1e-2f4a-4d8e-9a1b-3c5d7e9f1a2b';

/** The refusal a call throws: its status and body. */
function refusal(call: () => unknown) {
  try {
    call();
  } catch (error) {
    if (error instanceof ClientError) return { status: error.statusCode, body: error.body() };
    throw error;
  }
  throw new Error('not refused');
}

describe('opaque list cursors', () => {
  it('gives back the sort key it was made from, and none without a cursor', () => {
    const cursor = encodeCursor(users, ['1764670000123456', ID]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(users, cursor)).toEqual(['1764670000123456', ID]);
    expect(decodeCursor(users, undefined)).toBeNull();
  });

  it('refuses an altered cursor, garbage, or another list’s cursor with 400 and errorMessage', () => {
    const cursor = encodeCursor(users, ['1764670000123456', ID]);
    const json = Buffer.from(cursor, 'base64url').toString('utf8');
    const edited = (text: string) => Buffer.from(text).toString('base64url');
    const others: CursorShape = { list: 'registrations', parts: ['int', 'uuid'] };
    for (const bad of [
      'not a cursor!',
      cursor.slice(0, -3),
      edited(json.replace(ID, 'x')),
      edited(json.replace('1764670000123456', '17646700001234.5')),
      edited('{"list":"users"}'),
      edited('["users",1764670000123456,"' + ID + '"]'),
      edited('["users","1"]'),
      encodeCursor(others, ['1', ID]),
    ]) {
      const { status, body } = refusal(() => decodeCursor(users, bad));
      expect(status, bad).toBe(400);
      expect(body.errorMessage).toMatch(/cursor/);
      expect(body.errors).toEqual({ cursor: 'Not a cursor of this list' });
    }
  });

  it('refuses to make a cursor whose key does not fit its shape (a bug, not a request)', () => {
    expect(() => encodeCursor(users, ['soon', ID])).toThrow(/does not fit/);
    expect(() => encodeCursor(users, ['1'])).toThrow(/does not fit/);
  });

  it('pages rows read with limit + 1: a cursor only when another page follows', () => {
    const rows = [1, 2, 3].map((n) => ({ at: String(n), id: ID, name: `n${n}` }));
    const keyOf = (row: (typeof rows)[number]) => [row.at, row.id];
    const toItem = (row: (typeof rows)[number]) => row.name;

    const first = pageOf(rows, 2, users, keyOf, toItem);
    expect(first.data).toEqual(['n1', 'n2']);
    expect(decodeCursor(users, first.nextCursor ?? undefined)).toEqual(['2', ID]);

    expect(pageOf(rows, 3, users, keyOf, toItem)).toEqual({
      data: ['n1', 'n2', 'n3'],
      nextCursor: null,
    });
    expect(pageOf([], 3, users, keyOf, toItem)).toEqual({ data: [], nextCursor: null });
  });
});
