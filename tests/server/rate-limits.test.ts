/**
 * Rate limits that hold across instances (counters in PostgreSQL), the invitation limits, the
 * per-IP sign-in limit, and the fair, bounded password-hash queue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { BUSY_MESSAGE, HashQueue } from '../../src/server/auth/hashQueue';
import { RATE_LIMITS } from '../../src/server/auth/routeHelpers';
import { enforceLimit } from '../../src/server/auth/enforceLimit';
import { checkLimitMax, countHit, SATURATED_AT } from '../../src/server/db/rateLimits';
import { ClientError } from '../../src/server/errors';
import { freshClient, postForm, signedIn, uniqueEmail } from './authHelpers';
import { createTestApp, TestClient, type TestApp } from './testApp';

const API = '/exchange/api/web';
let t: TestApp;
/** A second instance of the portal on the same database. */
let other: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp();
  other = await buildApp({ config: t.config, pool: t.pool, mailer: t.mailer, logger: false });
  await other.ready();
});
afterAll(async () => {
  await other.close();
  await t.close();
});

/** A client of `app` whose requests come from `ip`. */
function clientAt(app: FastifyInstance, ip: string): TestClient {
  return new TestClient({
    inject: (options: object) => app.inject({ ...options, remoteAddress: ip }),
  } as unknown as FastifyInstance);
}

async function administratorOf(organizationId?: string) {
  const admin = await signedIn(t);
  const id =
    organizationId ??
    (
      await t.pool.query<{ id: string }>(
        // Approved: only an admitted organisation may invite (routes/user.ts).
        `insert into organizations (name, clearing_org_id, kind, participant_status)
         values ('Acme Hedging', $1, 'business', 'approved') returning id`,
        [`NCF-${Math.floor(Math.random() * 1e9)}`],
      )
    ).rows[0]!.id;
  await t.pool.query(
    `update users set organization_id = $1, roles = '{Administrator}' where id = $2`,
    [id, admin.id],
  );
  return { ...admin, organizationId: id };
}

function invite(client: TestClient) {
  return postForm(client, `${API}/user/settings`, [
    { name: 'tag', value: 'invite_user' },
    { name: 'email', value: uniqueEmail('invitee') },
  ]);
}

describe('invite_user limits', () => {
  it('limits invitations per Administrator, with 429, an errorMessage and Retry-After, and sends no mail beyond', async () => {
    const admin = await administratorOf();
    for (let i = 0; i < RATE_LIMITS.invitesPerUserPerHour; i++) {
      expect((await invite(admin.client)).statusCode).toBe(200);
    }
    const mailsBefore = t.mailer.outbox().length;
    const refused = await invite(admin.client);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errorMessage).toBe(
      'You have sent too many invitations. Please try again later.',
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(t.mailer.outbox().length).toBe(mailsBefore);
  });

  it('limits invitations per organisation, whichever Administrator sends them', async () => {
    const first = await administratorOf();
    const perUser = RATE_LIMITS.invitesPerUserPerHour;
    const admins = [first];
    while (admins.length * perUser < RATE_LIMITS.invitesPerOrganizationPerDay) {
      admins.push(await administratorOf(first.organizationId));
    }
    for (const admin of admins) {
      for (let i = 0; i < perUser; i++) expect((await invite(admin.client)).statusCode).toBe(200);
    }
    const fresh = await administratorOf(first.organizationId);
    expect((await invite(fresh.client)).statusCode).toBe(429);
    // Another organisation is not affected.
    const elsewhere = await administratorOf();
    expect((await invite(elsewhere.client)).statusCode).toBe(200);
  });
});

describe('sign-in limits', () => {
  it('refuses an address over its sign-in limit before reading the body, writing no counter per guessed email', async () => {
    const ip = '192.0.2.79';
    const a = clientAt(t.app, ip);
    for (let i = 0; i < RATE_LIMITS.signinPerIp; i++) {
      await a.post(`${API}/auth/signin`, {
        email: uniqueEmail('nobody'),
        password: 'Wrong-Pass-1',
      });
    }
    const guessed = uniqueEmail('guess');
    const refused = await a.post(`${API}/auth/signin`, {
      email: guessed,
      password: 'Wrong-Pass-1',
    });
    expect(refused.statusCode).toBe(429);
    const counters = await t.pool.query('select 1 from rate_limit_counters where key like $1', [
      `%${guessed}%`,
    ]);
    expect(counters.rowCount).toBe(0);
    // Not even parsed: a body that is not JSON is refused by the limit, not by the parser.
    const unparsed = await a.request('POST', `${API}/auth/signin`, {
      payload: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(unparsed.statusCode).toBe(429);
  });

  it('limits sign-ins per IP whatever the email, and the count holds across two instances', async () => {
    const ip = '192.0.2.77';
    const a = clientAt(t.app, ip);
    const b = clientAt(other, ip);
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMITS.signinPerIp; i++) {
      const response = await (i % 2 ? b : a).post(`${API}/auth/signin`, {
        email: uniqueEmail('nobody'),
        password: 'Wrong-Pass-1',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.every((status) => status === 401)).toBe(true);
    const refused = await b.post(`${API}/auth/signin`, {
      email: uniqueEmail('nobody'),
      password: 'Wrong-Pass-1',
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errorMessage).toBe(
      'Too many attempts. Please wait a minute and try again.',
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address still signs in.
    expect(
      (
        await freshClient(t.app).post(`${API}/auth/signin`, {
          email: uniqueEmail('nobody'),
          password: 'Wrong-Pass-1',
        })
      ).statusCode,
    ).toBe(401);
  });

  it('counts per IP+email limits (route config) across two instances', async () => {
    const ip = '192.0.2.78';
    const a = clientAt(t.app, ip);
    const b = clientAt(other, ip);
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMITS.signin; i++) {
      const response = await (i % 2 ? b : a).post(`${API}/auth/signin`, {
        email: 'someone@example.test',
        password: 'Wrong-Pass-1',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, RATE_LIMITS.signin).every((status) => status === 401)).toBe(true);
    expect(statuses[RATE_LIMITS.signin]).toBe(429);
  });
});

describe('the password-hash queue', () => {
  /** Work that finishes when the test says so, recording when it started. */
  function controlled(log: string[], name: string) {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    return {
      work: () => {
        log.push(name);
        return done;
      },
      finish,
    };
  }
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('runs at most `concurrency` at once and takes waiting work round-robin across clients', async () => {
    const queue = new HashQueue(1, 4, 64);
    const started: string[] = [];
    const attacker = [1, 2, 3, 4].map((n) => controlled(started, `attacker${n}`));
    const user = controlled(started, 'user');
    const runs = attacker.map((job) => queue.run('203.0.113.9', job.work));
    runs.push(queue.run('198.51.100.4', user.work));
    await tick();
    expect(started).toEqual(['attacker1']);
    attacker[0]!.finish();
    await tick();
    // The real user's turn comes before the attacker's other waiting hashes.
    expect(started).toEqual(['attacker1', 'user']);
    user.finish();
    for (const job of attacker.slice(1)) {
      await tick();
      job.finish();
    }
    await Promise.all(runs);
    expect(started).toEqual(['attacker1', 'user', 'attacker2', 'attacker3', 'attacker4']);
  });

  it('gives trusted work (a known device) a slot of its own, then a line served first that guesses cannot fill', async () => {
    const queue = new HashQueue(1, 4, 1, 1);
    const started: string[] = [];
    const [first, a, device, next] = ['first', 'a', 'device', 'next'].map((name) =>
      controlled(started, name),
    );
    const runs = [queue.run('x', first!.work), queue.run('y', a!.work)];
    // The shared line is full (capacity 1)…
    await expect(queue.run('w', async () => 'never')).rejects.toMatchObject({ statusCode: 503 });
    // …trusted work starts at once in its own slot, then waits in a line of its own (capacity 1).
    runs.push(queue.run('z', device!.work, true));
    runs.push(queue.run('v', next!.work, true));
    await expect(queue.run('u', async () => 'never', true)).rejects.toMatchObject({
      statusCode: 503,
    });
    await tick();
    expect(started).toEqual(['first', 'device']);
    // A freed slot goes to the trusted line before the waiting guess.
    first!.finish();
    await tick();
    expect(started).toEqual(['first', 'device', 'next']);
    for (const job of [device, next]) {
      job!.finish();
      await tick();
    }
    a!.finish();
    await Promise.all(runs);
    expect(started).toEqual(['first', 'device', 'next', 'a']);
  });

  it('refuses at once with 503 and Retry-After beyond a client’s share or the capacity', async () => {
    const queue = new HashQueue(1, 2, 3);
    const started: string[] = [];
    const jobs = Array.from({ length: 3 }, (_, n) => controlled(started, `a${n}`));
    const runs = jobs.map((job) => queue.run('a', job.work));
    // One runs, two wait: client a's share (2) is full.
    const refused = await queue.run('a', async () => 'never').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ClientError);
    expect(refused).toMatchObject({ statusCode: 503, message: BUSY_MESSAGE, retryAfterSeconds: 1 });
    const other = controlled(started, 'b0');
    runs.push(queue.run('b', other.work));
    // Capacity (3 waiting) is now full for everyone.
    await expect(queue.run('c', async () => 'never')).rejects.toMatchObject({ statusCode: 503 });
    for (const job of [...jobs, other]) {
      await tick();
      job.finish();
    }
    await Promise.all(runs);
    expect(started).toEqual(['a0', 'b0', 'a1', 'a2']);
  });
});

describe('a saturated counter', () => {
  it('beyond SATURATED_AT hits in its window is answered from memory, still over every limit, until the window ends', async () => {
    const key = `test:saturated:${Math.random()}`;
    const stored = async () =>
      (
        await t.pool.query<{ count: number }>(
          'select count from rate_limit_counters where key = $1',
          [key],
        )
      ).rows[0]?.count;
    await t.pool.query(
      `insert into rate_limit_counters (key, count, window_ends_at)
       values ($1, $2, now() + interval '2 seconds')`,
      [key, SATURATED_AT - 1],
    );
    expect((await countHit(t.pool, key, 2000)).count).toBe(SATURATED_AT); // from PostgreSQL
    for (let i = 1; i <= 50; i++) {
      const hit = await countHit(t.pool, key, 2000);
      expect(hit.count).toBe(SATURATED_AT + i);
      expect(hit.ttlMs).toBeGreaterThan(0);
    }
    expect(await stored()).toBe(SATURATED_AT); // no write per hit
    // After the window a hit goes to PostgreSQL again and opens a new window.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await countHit(t.pool, key, 2000)).count).toBe(1);
    expect(await stored()).toBe(1);
  });

  it('a key refused once is refused from memory until its window ends: no counter write per refused hit', async () => {
    const key = `test:refused:${Math.random()}`;
    const limit = { key, max: 3, windowMs: 1500, message: 'Slow down.' };
    const stored = async () =>
      (
        await t.pool.query<{ count: number }>(
          'select count from rate_limit_counters where key = $1',
          [key],
        )
      ).rows[0]?.count;
    for (let i = 0; i < 3; i++) await enforceLimit(t.pool, limit);
    const refusal = (): Promise<unknown> => enforceLimit(t.pool, limit).catch((error) => error);
    const first = await refusal();
    expect(first).toBeInstanceOf(ClientError);
    expect((first as ClientError).statusCode).toBe(429);
    expect(await stored()).toBe(4);
    for (let i = 0; i < 20; i++) {
      const again = (await refusal()) as ClientError;
      expect(again.statusCode).toBe(429);
      expect(again.message).toBe('Slow down.');
      expect(again.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    }
    expect(await stored()).toBe(4); // refused without a write
    // Another limit on the same key (a larger max) still counts in PostgreSQL.
    await expect(enforceLimit(t.pool, { ...limit, max: 10 })).resolves.toBeUndefined();
    expect(await stored()).toBe(5);
    // Once the window ends the key is counted afresh.
    await new Promise((resolve) => setTimeout(resolve, 1600));
    await expect(enforceLimit(t.pool, limit)).resolves.toBeUndefined();
    expect(await stored()).toBe(1);
  });

  it('refuses at start a limit the shortcut could not honour', () => {
    expect(() => checkLimitMax(SATURATED_AT)).toThrow();
    expect(() => checkLimitMax(0)).toThrow();
    expect(checkLimitMax(SATURATED_AT - 1)).toBe(SATURATED_AT - 1);
    for (const max of Object.values(RATE_LIMITS)) expect(checkLimitMax(max)).toBe(max);
  });
});
