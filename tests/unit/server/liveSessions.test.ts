import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseListener } from '../../../src/server/db/notifications';
import type { Queryable } from '../../../src/server/db/transaction';
import { LiveSessionCache } from '../../../src/server/auth/liveSessions';

interface Row {
  user_id: string;
  is_staff: boolean;
  approved: boolean;
  organization_id: string | null;
  clearing_org_id: string | null;
  expires_in_ms: number;
  idle_ms: number;
  stale: boolean;
}

/** A database of live sessions by id hash; counts the session reads and the touches. */
function fakeDatabase(sessions: Record<string, Row>) {
  const reads: string[] = [];
  const touches: string[] = [];
  let gate: Promise<void> | undefined;
  const db = {
    query: async (query: string | { values: string[] }, values?: string[]) => {
      if (typeof query === 'string') {
        touches.push(values![0]!);
        return { rows: [] };
      }
      const idHash = query.values[0]!;
      reads.push(idHash);
      await gate;
      const row = sessions[idHash];
      return { rows: row ? [{ ...row }] : [] };
    },
  } as unknown as Queryable;
  return { db, reads, touches, hold: (until: Promise<void>) => (gate = until) };
}

/** A notification connection the test drives. */
function fakeListener() {
  let handler: (payload: string) => void = () => {};
  let reconnect: () => void = () => {};
  const listener = {
    connected: true,
    listen: async (_channel: string, on: (payload: string) => void) => {
      handler = on;
    },
    onReconnect: (on: () => void) => {
      reconnect = on;
    },
  };
  return {
    listener: listener as unknown as DatabaseListener & { connected: boolean },
    notify: (payload: string) => handler(payload),
    reconnect: () => reconnect(),
    setConnected: (connected: boolean) => (listener.connected = connected),
  };
}

const row = (overrides: Partial<Row> = {}): Row => ({
  user_id: 'user-1',
  is_staff: false,
  approved: true,
  organization_id: 'org-1',
  clearing_org_id: 'NCF-100001',
  expires_in_ms: 6 * 60 * 60 * 1000,
  idle_ms: 1000,
  stale: false,
  ...overrides,
});

async function cacheOf(sessions: Record<string, Row>) {
  const database = fakeDatabase(sessions);
  const notifications = fakeListener();
  const cache = new LiveSessionCache(database.db);
  await cache.listen(notifications.listener);
  return { cache, ...database, ...notifications };
}

afterEach(() => vi.useRealTimers());

describe('live sessions kept in memory (the statement GET)', () => {
  it('reads a session once, then answers from memory, with what its user may read', async () => {
    const { cache, reads } = await cacheOf({ a: row() });
    const first = await cache.access('a');
    expect(first).toEqual({
      userId: 'user-1',
      isStaff: false,
      approved: true,
      organizationId: 'org-1',
      clearingOrgId: 'NCF-100001',
    });
    expect(await cache.access('a')).toEqual(first);
    expect(reads).toEqual(['a']);
  });

  it('keeps no unknown or ended session', async () => {
    const { cache, reads } = await cacheOf({});
    expect(await cache.access('gone')).toBeNull();
    expect(await cache.access('gone')).toBeNull();
    expect(reads).toEqual(['gone', 'gone']);
  });

  it('forgets a session named by a notification: its end, its user, its organisation', async () => {
    const { cache, reads, notify } = await cacheOf({
      a: row(),
      b: row({ user_id: 'user-2', organization_id: 'org-2' }),
      c: row({ user_id: 'user-3', organization_id: 'org-3' }),
    });
    for (const idHash of ['a', 'b', 'c']) await cache.access(idHash);
    expect(reads).toEqual(['a', 'b', 'c']);
    notify('sa');
    notify('uuser-2');
    notify('oorg-3');
    for (const idHash of ['a', 'b', 'c']) await cache.access(idHash);
    expect(reads).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
    // A payload it cannot read forgets everything.
    notify('?');
    await cache.access('a');
    expect(reads.at(-1)).toBe('a');
  });

  it('does not keep a read that a notification overtook (it may show the row before the commit)', async () => {
    const { cache, reads, hold, notify } = await cacheOf({ a: row() });
    let release: () => void = () => {};
    hold(new Promise<void>((resolve) => (release = resolve)));
    const reading = cache.access('a');
    notify('uuser-1');
    release();
    expect(await reading).not.toBeNull();
    hold(Promise.resolve());
    await cache.access('a');
    expect(reads).toEqual(['a', 'a']);
  });

  it('answers nothing from memory while the notifications are not heard, and forgets all on reconnection', async () => {
    const { cache, reads, setConnected, reconnect } = await cacheOf({ a: row() });
    await cache.access('a');
    setConnected(false);
    await cache.access('a');
    await cache.access('a');
    expect(reads).toEqual(['a', 'a', 'a']);
    setConnected(true);
    reconnect();
    await cache.access('a');
    await cache.access('a');
    expect(reads).toEqual(['a', 'a', 'a', 'a']);
  });

  it('reads again when the idle timer is due a refresh, at the idle end, or at the absolute end', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { cache, reads } = await cacheOf({
      fresh: row({ idle_ms: 0 }),
      idle: row({ idle_ms: 59_000 }),
      ending: row({ idle_ms: 0, expires_in_ms: 5_000 }),
    });
    for (const idHash of ['fresh', 'idle', 'ending']) await cache.access(idHash);
    vi.advanceTimersByTime(2_000);
    for (const idHash of ['fresh', 'idle', 'ending']) await cache.access(idHash);
    // 'idle' was due its refresh a second after the read: read again.
    expect(reads).toEqual(['fresh', 'idle', 'ending', 'idle']);
    vi.advanceTimersByTime(4_000);
    for (const idHash of ['fresh', 'ending']) await cache.access(idHash);
    expect(reads.slice(4)).toEqual(['ending']);
    vi.advanceTimersByTime(55_000);
    await cache.access('fresh');
    expect(reads.slice(5)).toEqual(['fresh']);
  });

  it('refreshes a stale idle timer when it reads the session', async () => {
    const { cache, touches } = await cacheOf({ a: row({ stale: true, idle_ms: 120_000 }) });
    await cache.access('a');
    expect(touches).toEqual(['a']);
    await cache.access('a');
    expect(touches).toEqual(['a']);
  });

  it('drops the oldest kept beyond its size', async () => {
    const database = fakeDatabase({ a: row(), b: row(), c: row() });
    const notifications = fakeListener();
    const cache = new LiveSessionCache(database.db, 2);
    await cache.listen(notifications.listener);
    for (const idHash of ['a', 'b', 'c', 'b', 'c', 'a']) await cache.access(idHash);
    expect(database.reads).toEqual(['a', 'b', 'c', 'a']);
  });
});
