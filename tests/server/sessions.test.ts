/** The idle timeout: honest to within a minute, without a write on every request. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/db/opaqueTokens';
import { SESSION_COOKIE } from '../../src/shared/api/http';
import { signedIn } from './authHelpers';
import { createTestApp, type TestApp } from './testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('session idle timer', () => {
  async function session() {
    const user = await signedIn(t);
    const idHash = hashToken(user.client.cookies.get(SESSION_COOKIE)!);
    const setLastSeen = (ago: string) =>
      t.pool.query(`update sessions set last_seen_at = now() - $2::interval where id_hash = $1`, [
        idHash,
        ago,
      ]);
    const secondsSinceSeen = async () =>
      (
        await t.pool.query<{ s: number }>(
          'select extract(epoch from now() - last_seen_at)::float as s from sessions where id_hash = $1',
          [idHash],
        )
      ).rows[0]!.s;
    return { ...user, idHash, setLastSeen, secondsSinceSeen };
  }

  // Two ways a request reads its session: the session plugin's lookup (GET user), and the
  // statement GET's own one-query read (LIVE_SESSION_SQL); both keep the same timer. Signed in,
  // the statement of an organisation that is not the caller's answers 403; signed out, 401.
  const READS = [
    { name: 'GET user', url: '/exchange/api/web/user', signedIn: 200 },
    {
      name: 'GET statement',
      url: '/exchange/api/web/customer/NCF-999999/statement',
      signedIn: 403,
    },
  ];

  it.each(READS)(
    '$name: does not write the timer when it was refreshed within the last minute',
    async (read) => {
      const { client, setLastSeen, secondsSinceSeen } = await session();
      await setLastSeen('20 seconds');
      expect((await client.get(read.url)).statusCode).toBe(read.signedIn);
      expect(await secondsSinceSeen()).toBeGreaterThanOrEqual(19);
    },
  );

  it.each(READS)(
    '$name: refreshes a timer older than a minute, so an active user stays signed in',
    async (read) => {
      const { client, setLastSeen, secondsSinceSeen } = await session();
      await setLastSeen('29 minutes');
      expect((await client.get(read.url)).statusCode).toBe(read.signedIn);
      expect(await secondsSinceSeen()).toBeLessThan(5);
    },
  );

  it.each(READS)('$name: ends a session idle for more than 30 minutes', async (read) => {
    const { client, setLastSeen } = await session();
    await setLastSeen('31 minutes');
    expect((await client.get(read.url)).statusCode).toBe(401);
  });

  it.each(READS)('$name: ends a session past its absolute end', async (read) => {
    const { client, idHash } = await session();
    await t.pool.query(
      `update sessions set expires_at = now() - interval '1 second' where id_hash = $1`,
      [idHash],
    );
    expect((await client.get(read.url)).statusCode).toBe(401);
  });
});
