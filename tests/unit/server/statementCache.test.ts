import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../../src/server/db/transaction';
import { StatementCache } from '../../../src/server/statements/statementCache';

/** A database holding one statement body per organisation; counts the reads. */
function fakeDatabase(bodies: Record<string, string | null>) {
  const reads: string[] = [];
  const db = {
    query: async (_text: string, values: string[]) => {
      const organizationId = values[0]!;
      reads.push(organizationId);
      const body = bodies[organizationId];
      return { rows: body ? [{ statement_json: body }] : [] };
    },
  } as unknown as Queryable;
  return { db, reads };
}

describe('the statement cache', () => {
  it('reads an organisation once, then answers from memory until invalidated', async () => {
    const { db, reads } = fakeDatabase({ a: '{"asOf":"2026-11-20"}' });
    const cache = new StatementCache(db);
    const first = await cache.current('a');
    expect(await cache.current('a')).toBe(first);
    expect(reads).toEqual(['a']);
    cache.invalidate('a');
    await cache.current('a');
    expect(reads).toEqual(['a', 'a']);
  });

  it('answers a statement it holds at once, without a promise, and a read in flight as one', async () => {
    const { db, reads } = fakeDatabase({ a: '{"asOf":"2026-11-20"}' });
    const cache = new StatementCache(db);
    const reading = cache.current('a');
    expect(reading).toBeInstanceOf(Promise);
    expect(cache.current('a')).toBe(reading); // concurrent requests share the read
    const first = await reading;
    const held = cache.current('a');
    expect(held).not.toBeInstanceOf(Promise);
    expect(held).toBe(first);
    expect(reads).toEqual(['a']);
  });

  it('keeps no answer for an organisation without a statement', async () => {
    const { db, reads } = fakeDatabase({ a: null });
    const cache = new StatementCache(db);
    expect(await cache.current('a')).toBeNull();
    expect(await cache.current('a')).toBeNull();
    expect(reads).toEqual(['a', 'a']);
  });

  it('drops the least recently read beyond its byte budget', async () => {
    const body = (n: number) => JSON.stringify({ padding: 'x'.repeat(n) });
    const { db, reads } = fakeDatabase({ a: body(50), b: body(50), c: body(50) });
    const cache = new StatementCache(db, 150);
    await cache.current('a');
    await cache.current('b');
    await cache.current('a'); // a is now the most recently read
    await cache.current('c'); // over budget: b goes
    expect(reads).toEqual(['a', 'b', 'c']);
    await cache.current('a');
    expect(reads).toEqual(['a', 'b', 'c']);
    await cache.current('b');
    expect(reads).toEqual(['a', 'b', 'c', 'b']);
  });
});
