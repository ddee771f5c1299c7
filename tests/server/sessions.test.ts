/** The idle timeout: honest to within a minute, without a write on every request. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/auth/tokens';
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
    return { ...user, setLastSeen, secondsSinceSeen };
  }

  it('does not write the timer when it was refreshed within the last minute', async () => {
    const { client, setLastSeen, secondsSinceSeen } = await session();
    await setLastSeen('20 seconds');
    expect((await client.get('/exchange/api/web/user')).statusCode).toBe(200);
    expect(await secondsSinceSeen()).toBeGreaterThanOrEqual(19);
  });

  it('refreshes a timer older than a minute, so an active user stays signed in', async () => {
    const { client, setLastSeen, secondsSinceSeen } = await session();
    await setLastSeen('29 minutes');
    expect((await client.get('/exchange/api/web/user')).statusCode).toBe(200);
    expect(await secondsSinceSeen()).toBeLessThan(5);
  });

  it('ends a session idle for more than 30 minutes', async () => {
    const { client, setLastSeen } = await session();
    await setLastSeen('31 minutes');
    expect((await client.get('/exchange/api/web/user')).statusCode).toBe(401);
  });
});
