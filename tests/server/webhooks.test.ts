/**
 * Webhooks (issue 40 §5): an organisation's Administrator registers an endpoint (secret shown
 * once, stored sealed); the events of its registration and statements are queued in the
 * transaction of the change and posted, signed, to a receiver on loopback by the delivery worker,
 * whose ticks the tests drive with the time they choose (no sleeps): delivery, the signature,
 * retry after a 500 with backoff for at least 24 hours, order per registration, two workers never
 * posting one delivery twice, resend, redirects and private addresses refused, no PII.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhookEventSchemas, type WebhookDelivery } from '../../src/shared/api/webhooks';
import { demoStatement } from '../../src/server/seed/demoReview';
import { recordStatusChange } from '../../src/server/db/registrationVersions';
import { withTransaction } from '../../src/server/db/transaction';
import { newFieldKey, parseFieldKeys } from '../../src/server/fieldEncryption/keyRing';
import { rotateFieldKeys } from '../../src/server/fieldEncryption/rotateKeys';
import { DeliveryWorker, retryDelayMs } from '../../src/server/webhooks/deliveryWorker';
import { cleanUpDeliveries } from '../../src/server/webhooks/retention';
import { buildApp } from '../../src/server/app';
import { createOutboxMailer } from '../../src/server/mail/mailer';
import { addressRefusal, endpointUrlRefusal } from '../../src/server/webhooks/endpointAddress';
import { registeredCustomer, signedInStaff } from './adminHelpers';
import { scopeMissing } from '../../src/server/plugins/apiCredentials';
import { freshClient, PASSWORD, signedIn } from './authHelpers';
import { testAppForBlock, type TestClient } from './testApp';
import { startReceiver, verifyWebhook, type Receiver } from './webhookReceiver';

const W = '/exchange/api/web/webhooks';
const A = '/exchange/api/admin';

const ajv = new Ajv2020({ strict: false });
addFormats(ajv);

/**
 * A worker's "now" for deliveries just queued: a second on, as a queued row's next_attempt_at is
 * the database's clock in microseconds, and a JavaScript date of the same millisecond falls
 * before it (the delivery then waits for the next tick, and the test counted one short).
 */
function dueNow(): Date {
  return new Date(Date.now() + 1000);
}

describe('webhooks (issue 40 §5)', () => {
  const t = testAppForBlock();
  let receiver: Receiver;
  let worker: DeliveryWorker;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver.close());
  afterEach(async () => {
    receiver.received.length = 0;
    receiver.answers.length = 0;
    // What a test left queued is not the next test's to post.
    await t.pool.query(`update webhook_deliveries set state = 'failed' where state = 'pending'`);
  });

  /** A worker as the app's, with jitter pinned so the times are known. */
  const newWorker = (options: { random?: () => number; timeoutMs?: number } = {}) =>
    new DeliveryWorker({
      pool: t.pool,
      fieldKeys: t.app.fieldKeys,
      production: false,
      random: options.random ?? (() => 0.5),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
  beforeAll(() => {
    worker = newWorker();
  });

  /** A registered customer (Administrator of the organisation) with an endpoint of `events`. */
  async function partnerWithEndpoint(events: string[] = ['registration.changes_requested']) {
    const customer = await registeredCustomer(t);
    const created = await customer.client.post(`${W}/endpoints`, {
      url: receiver.url,
      description: 'Partner hooks',
      events,
    });
    expect(created.statusCode, created.body).toBe(201);
    const endpoint = created.json() as { id: string; secret: string };
    return { customer, endpoint, secret: endpoint.secret };
  }

  const requestChanges = async (staff: { client: TestClient }, registrationId: string) => {
    const response = await staff.client.post(`${A}/onboarding/kyc-changes-request`, {
      registrationId,
      note: 'Please fix.',
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  const deliveries = async (client: TestClient, query = '') => {
    const response = await client.get(`${W}/deliveries${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { data: WebhookDelivery[]; nextCursor: string | null };
  };

  /** The due time of a pending delivery, as the worker will read it. */
  const dueAt = async (deliveryId: string) =>
    (
      await t.pool.query<{ next_attempt_at: Date }>(
        'select next_attempt_at from webhook_deliveries where id = $1',
        [deliveryId],
      )
    ).rows[0]!.next_attempt_at;

  it('registers an endpoint: the secret answered once, stored sealed, never listed', async () => {
    const { customer, endpoint, secret } = await partnerWithEndpoint();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await customer.client.get(`${W}/endpoints`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      data: [
        {
          id: endpoint.id,
          url: receiver.url,
          description: 'Partner hooks',
          events: ['registration.changes_requested'],
          enabled: true,
          createdAt: expect.any(String),
        },
      ],
    });
    expect(list.body).not.toContain(secret);
    const stored = await t.pool.query<{ secret: { secret: { $sealed: string } } }>(
      'select secret from webhook_endpoints where id = $1',
      [endpoint.id],
    );
    expect(stored.rows[0]!.secret.secret.$sealed).toMatch(/^v1\.test\./);
    expect(JSON.stringify(stored.rows[0]!.secret)).not.toContain(secret.slice(6));
  });

  it('refuses anyone but an organisation’s Administrator, and hides another organisation’s', async () => {
    const signedOut = await freshClient(t.app).get(`${W}/endpoints`);
    expect(signedOut.statusCode).toBe(401);
    const noOrganization = await signedIn(t);
    const refused = await noOrganization.client.post(`${W}/endpoints`, {
      url: receiver.url,
      events: ['registration.approved'],
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errorMessage).toBe(
      'Only an Administrator of your organisation can do this.',
    );
    const { customer, endpoint } = await partnerWithEndpoint();
    await t.pool.query(`update users set roles = '{Viewer}' where id = $1`, [customer.id]);
    expect((await customer.client.get(`${W}/endpoints`)).statusCode).toBe(403);
    await t.pool.query(`update users set roles = '{Administrator}' where id = $1`, [customer.id]);
    const other = await registeredCustomer(t);
    const patch = await other.client.request('PATCH', `${W}/endpoints/${endpoint.id}`, {
      json: { enabled: false },
    });
    expect(patch.statusCode).toBe(404);
    expect((await other.client.request('DELETE', `${W}/endpoints/${endpoint.id}`)).statusCode).toBe(
      404,
    );
  });

  it('takes an API credential with webhooks:manage (no cookie, no CSRF header), refuses one without', async () => {
    const customer = await registeredCustomer(t);
    const credential = async (scopes: string[]) => {
      const made = await customer.client.post('/exchange/api/web/user/api-credentials', {
        name: 'Back office',
        scopes,
        password: PASSWORD,
      });
      expect(made.statusCode, made.body).toBe(201);
      return (made.json() as { secret: string }).secret;
    };
    const call = (secret: string, method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${secret}` },
        ...(payload ? { payload } : {}),
      });
    const manage = await credential(['webhooks:manage']);
    const created = await call(manage, 'POST', `${W}/endpoints`, {
      url: receiver.url,
      events: ['registration.approved'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const listed = await call(manage, 'GET', `${W}/endpoints`);
    expect(listed.json().data.map((endpoint: { id: string }) => endpoint.id)).toEqual([
      created.json().id,
    ]);
    expect((await call(manage, 'GET', `${W}/deliveries`)).statusCode).toBe(200);
    const readOnly = await credential(['registrations:read', 'statements:read']);
    const refused = await call(readOnly, 'GET', `${W}/endpoints`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errorMessage).toBe(scopeMissing('webhooks:manage'));
  });

  it('refuses plain http beyond loopback and private addresses; production refuses loopback too', async () => {
    const customer = await registeredCustomer(t);
    for (const url of [
      'http://example.com/hooks',
      'https://10.1.2.3/hooks',
      'https://[fd00::1]/hooks',
      'https://169.254.169.254/latest',
      'https://user:pass@example.com/hooks',
      'ftp://example.com/',
    ]) {
      const refused = await customer.client.post(`${W}/endpoints`, {
        url,
        events: ['registration.approved'],
      });
      expect(refused.statusCode, url).toBe(422);
      expect(refused.json().errors['/url'], url).toBeTruthy();
      expect(refused.json().code, url).toBe('validation_failed');
    }
    // Development and tests: loopback by http or https; production: public https only.
    expect(endpointUrlRefusal('http://127.0.0.1:9/hooks', false)).toBeNull();
    expect(endpointUrlRefusal('http://localhost:9/hooks', false)).toBeNull();
    expect(endpointUrlRefusal('https://hooks.example.com/in', true)).toBeNull();
    expect(endpointUrlRefusal('http://hooks.example.com/in', true)).toMatch(/https/);
    expect(endpointUrlRefusal('https://127.0.0.1/hooks', true)).toMatch(/Loopback/);
    expect(endpointUrlRefusal('https://localhost/hooks', true)).toMatch(/Loopback/);
    expect(addressRefusal('::1', true)).toMatch(/loopback/);
    expect(addressRefusal('::ffff:192.168.1.1', false)).toMatch(/private/);
    expect(addressRefusal('100.64.0.1', false)).toMatch(/private/);
    expect(addressRefusal('93.184.215.14', true)).toBeNull();
    expect(addressRefusal('2606:4700::1111', true)).toBeNull();
  });

  it('posts a change request signed, with ids and statuses only, once; lists it with its attempt', async () => {
    const { customer, endpoint, secret } = await partnerWithEndpoint();
    const staff = await signedInStaff(t);
    await requestChanges(staff, customer.registrationId);
    const now = dueNow();
    expect(await worker.tick(now)).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const [post] = receiver.received;
    const header = String(post!.headers['northstar-signature']);
    expect(verifyWebhook(secret, header, post!.body, Math.floor(now.getTime() / 1000))).toBe(true);
    // Tampered with, or signed with another secret, it does not verify.
    expect(verifyWebhook(secret, header, post!.body.replace('changes', 'chonges'))).toBe(false);
    expect(verifyWebhook(`${secret}x`, header, post!.body)).toBe(false);
    const event = JSON.parse(post!.body) as Record<string, unknown>;
    expect(event).toEqual({
      id: expect.any(String),
      type: 'registration.changes_requested',
      createdAt: expect.any(String),
      data: {
        registrationId: customer.registrationId,
        organizationId: customer.organizationId,
        formId: 'individual',
        status: 'changes_requested',
        changedAt: expect.any(String),
      },
    });
    expect(ajv.validate(webhookEventSchemas['registration.changes_requested'], event)).toBe(true);
    expect(post!.headers['content-type']).toBe('application/json');
    expect(post!.headers['northstar-event-id']).toBe(event.id);
    // No PII: neither the email, nor a name, nor any answer's text.
    const texts = Object.values(customer.answers).filter(
      (value): value is string => typeof value === 'string' && value.length > 3,
    );
    for (const text of [customer.email, ...texts]) expect(post!.body).not.toContain(text);
    // Delivered once: a later tick posts nothing.
    expect(await worker.tick(new Date(now.getTime() + 3_600_000))).toBe(0);
    const listed = await deliveries(customer.client);
    expect(listed.data).toEqual([
      {
        id: post!.headers['northstar-delivery-id'],
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: 'registration.changes_requested',
        state: 'delivered',
        nextAttemptAt: null,
        resendOf: null,
        createdAt: expect.any(String),
        completedAt: expect.any(String),
        attempts: [
          {
            attemptedAt: now.toISOString(),
            statusCode: 200,
            responseExcerpt: 'ok',
            error: null,
            durationMs: expect.any(Number),
          },
        ],
      },
    ]);
    expect(listed.nextCursor).toBeNull();
  });

  it('queues nothing for a disabled endpoint; a changed URL is checked as a new one', async () => {
    const { customer, endpoint } = await partnerWithEndpoint();
    const patch = (json: object) =>
      customer.client.request('PATCH', `${W}/endpoints/${endpoint.id}`, { json });
    const disabled = await patch({ enabled: false });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ id: endpoint.id, enabled: false });
    await requestChanges(await signedInStaff(t), customer.registrationId);
    expect((await deliveries(customer.client)).data).toEqual([]);
    expect(await worker.tick(dueNow())).toBe(0);
    const refused = await patch({ url: 'http://example.com/hooks' });
    expect(refused.statusCode).toBe(422);
    expect(
      (await patch({ enabled: true, events: ['registration.approved'] })).json(),
    ).toMatchObject({ enabled: true, events: ['registration.approved'], url: receiver.url });
  });

  it('queues the event in the transaction of the change: rolled back, nothing is told', async () => {
    const { customer } = await partnerWithEndpoint(['registration.approved']);
    const rolledBack = withTransaction(t.pool, async (db) => {
      await recordStatusChange(db, {
        registrationId: customer.registrationId,
        status: 'approved',
        changedBy: null,
        actor: 'operator',
      });
      const queued = await db.query(
        `select 1 from webhook_events where data->>'registrationId' = $1`,
        [customer.registrationId],
      );
      expect(queued.rowCount).toBe(1);
      throw new Error('the change failed after its event was queued');
    });
    await expect(rolledBack).rejects.toThrow('the change failed');
    const after = await t.pool.query(
      `select 1 from webhook_events where data->>'registrationId' = $1`,
      [customer.registrationId],
    );
    expect(after.rowCount).toBe(0);
  });

  it('retries after a 500 with backoff and records each attempt and its answer', async () => {
    const { customer } = await partnerWithEndpoint();
    await requestChanges(await signedInStaff(t), customer.registrationId);
    receiver.answers.push({ status: 500, body: 'Internal trouble, try later' });
    const now = dueNow();
    expect(await worker.tick(now)).toBe(1);
    let [delivery] = (await deliveries(customer.client)).data;
    expect(delivery!.state).toBe('pending');
    expect(delivery!.attempts).toEqual([
      {
        attemptedAt: now.toISOString(),
        statusCode: 500,
        responseExcerpt: 'Internal trouble, try later',
        error: 'answered 500',
        durationMs: expect.any(Number),
      },
    ]);
    // 30 s × the jitter factor 0.75 (random pinned at 0.5).
    const due = await dueAt(delivery!.id);
    expect(due.getTime() - now.getTime()).toBe(22_500);
    expect(delivery!.nextAttemptAt).toBe(due.toISOString());
    // Not due yet: nothing is posted.
    expect(await worker.tick(new Date(due.getTime() - 1))).toBe(0);
    expect(await worker.tick(due)).toBe(1);
    [delivery] = (await deliveries(customer.client)).data;
    expect(delivery!.state).toBe('delivered');
    expect(delivery!.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 200]);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]!.body).toBe(receiver.received[1]!.body);
  });

  it('keeps retrying for at least 24 hours, even at the shortest jitter, then gives up', async () => {
    const { customer } = await partnerWithEndpoint();
    await requestChanges(await signedInStaff(t), customer.registrationId);
    const shortest = newWorker({ random: () => 0 });
    const first = new Date();
    let now = first;
    let attempts = 0;
    for (;;) {
      receiver.answers.push({ status: 503 });
      expect(await shortest.tick(now)).toBe(1);
      attempts++;
      const [delivery] = (await deliveries(customer.client)).data;
      if (delivery!.state === 'failed') break;
      now = await dueAt(delivery!.id);
      expect(attempts).toBeLessThan(100);
    }
    expect(now.getTime() - first.getTime()).toBeGreaterThanOrEqual(24 * 3_600_000);
    const [failed] = (await deliveries(customer.client)).data;
    expect(failed!.attempts).toHaveLength(attempts);
    expect(failed!.nextAttemptAt).toBeNull();
    expect(failed!.completedAt).not.toBeNull();
    // The schedule: doubling from 30 s, at most 6 h, jitter between half and all of it.
    expect([1, 2, 3, 12, 13].map((n) => retryDelayMs(n, () => 0))).toEqual([
      15_000, 30_000, 60_000, 10_800_000, 10_800_000,
    ]);
    expect(retryDelayMs(1, () => 0.999_999)).toBeLessThanOrEqual(30_000);
  });

  it('keeps the order of one registration: a later event waits until the earlier is delivered', async () => {
    const { customer } = await partnerWithEndpoint([
      'registration.changes_requested',
      'registration.rejected',
    ]);
    const staff = await signedInStaff(t);
    await requestChanges(staff, customer.registrationId);
    const rejected = await staff.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: customer.registrationId,
      approved: false,
      reason: 'Not for us.',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    receiver.answers.push({ status: 500 });
    const now = dueNow();
    // The change request fails; the rejection, due too, is not posted before it.
    expect(await worker.tick(now)).toBe(1);
    expect(await worker.tick(now)).toBe(0);
    const later = new Date(now.getTime() + 60_000);
    expect(await worker.tick(later)).toBe(1);
    expect(await worker.tick(later)).toBe(1);
    const types = receiver.received.map((post) => (JSON.parse(post.body) as { type: string }).type);
    expect(types).toEqual([
      'registration.changes_requested',
      'registration.changes_requested',
      'registration.rejected',
    ]);
  });

  it('two workers on two connection pools ticking at once never post one delivery twice', async () => {
    const { customer, endpoint } = await partnerWithEndpoint();
    // Twenty deliveries of twenty orderings (as many registrations), all due.
    for (let n = 0; n < 20; n++) {
      await t.pool.query(
        `with event as (
           insert into webhook_events (type, organization_id, ordering_key, data)
           values ('registration.changes_requested', $1, $2, $3) returning id)
         insert into webhook_deliveries (event_id, endpoint_id, ordering_key)
         select id, $4, $2 from event`,
        [
          customer.organizationId,
          `registration:${crypto.randomUUID()}`,
          JSON.stringify({ n }),
          endpoint.id,
        ],
      );
    }
    const otherPool = new pg.Pool({ connectionString: await connectionString(t.pool) });
    try {
      const second = new DeliveryWorker({
        pool: otherPool,
        fieldKeys: t.app.fieldKeys,
        production: false,
        batch: 5,
      });
      const first = newWorker();
      const now = dueNow();
      const counts = await Promise.all([
        first.tick(now),
        second.tick(now),
        new DeliveryWorker({ pool: t.pool, fieldKeys: t.app.fieldKeys, production: false }).tick(
          now,
        ),
        second.tick(now),
      ]);
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(20);
    } finally {
      await otherPool.end();
    }
    const ids = receiver.received.map((post) => post.headers['northstar-delivery-id']);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    const states = await t.pool.query<{ state: string; attempts: number }>(
      'select state, attempts from webhook_deliveries where endpoint_id = $1',
      [endpoint.id],
    );
    expect(states.rows.every((row) => row.state === 'delivered' && row.attempts === 1)).toBe(true);
  });

  it('resends a delivery: the same event again, as a new delivery naming the first', async () => {
    const { customer } = await partnerWithEndpoint();
    await requestChanges(await signedInStaff(t), customer.registrationId);
    await worker.tick(dueNow());
    const [original] = (await deliveries(customer.client)).data;
    const resend = await customer.client.post(`${W}/deliveries/${original!.id}/resend`);
    expect(resend.statusCode, resend.body).toBe(202);
    const resent = resend.json() as WebhookDelivery;
    expect(resent).toMatchObject({
      eventId: original!.eventId,
      resendOf: original!.id,
      state: 'pending',
      attempts: [],
    });
    expect(await worker.tick(dueNow())).toBe(1);
    expect(receiver.received).toHaveLength(2);
    const [a, b] = receiver.received.map((post) => JSON.parse(post.body) as { id: string });
    expect(b).toEqual(a);
    const one = await customer.client.get(`${W}/deliveries/${resent.id}`);
    expect(one.json()).toMatchObject({ state: 'delivered', resendOf: original!.id });
    // Another organisation's Administrator cannot read or resend it.
    const other = await registeredCustomer(t);
    expect((await other.client.get(`${W}/deliveries/${resent.id}`)).statusCode).toBe(404);
    expect((await other.client.post(`${W}/deliveries/${resent.id}/resend`)).statusCode).toBe(404);
    expect((await deliveries(other.client)).data).toEqual([]);
  });

  it('pages the deliveries with a cursor, newest first; refuses a cursor it did not make', async () => {
    const { customer, endpoint } = await partnerWithEndpoint();
    await requestChanges(await signedInStaff(t), customer.registrationId);
    await worker.tick(dueNow());
    const [original] = (await deliveries(customer.client)).data;
    await customer.client.post(`${W}/deliveries/${original!.id}/resend`);
    const first = await deliveries(customer.client, `?limit=1&endpointId=${endpoint.id}`);
    expect(first.data.map((d) => d.resendOf)).toEqual([original!.id]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await deliveries(customer.client, `?limit=1&cursor=${first.nextCursor}`);
    expect(second.data.map((d) => d.id)).toEqual([original!.id]);
    expect(second.nextCursor).toBeNull();
    const forged = Buffer.from(JSON.stringify(['adminUsers', '1'])).toString('base64url');
    expect((await customer.client.get(`${W}/deliveries?cursor=${forged}`)).statusCode).toBe(400);
  });

  it('tells a statement published, and nothing to an endpoint not subscribed or deleted', async () => {
    const { customer, endpoint } = await partnerWithEndpoint(['statement.published']);
    const staff = await signedInStaff(t);
    await requestChanges(staff, customer.registrationId); // not subscribed: not queued
    const loaded = await staff.client.request('PUT', `${A}/statements/${customer.organizationId}`, {
      json: { asOf: '2026-11-20', statement: demoStatement() },
    });
    expect(loaded.statusCode, loaded.body).toBe(200);
    expect(await worker.tick(dueNow())).toBe(1);
    const event = JSON.parse(receiver.received[0]!.body) as Record<string, unknown>;
    expect(event).toMatchObject({
      type: 'statement.published',
      data: { organizationId: customer.organizationId, asOf: '2026-11-20' },
    });
    expect(ajv.validate(webhookEventSchemas['statement.published'], event)).toBe(true);
    expect(
      (await customer.client.request('DELETE', `${W}/endpoints/${endpoint.id}`)).statusCode,
    ).toBe(204);
    await staff.client.request('PUT', `${A}/statements/${customer.organizationId}`, {
      json: { asOf: '2026-11-21', statement: demoStatement() },
    });
    expect(await worker.tick(dueNow())).toBe(0);
    expect((await customer.client.get(`${W}/endpoints`)).json()).toEqual({ data: [] });
  });

  it('follows no redirect, gives up a hanging answer at its deadline, refuses loopback in production', async () => {
    const { customer } = await partnerWithEndpoint();
    const staff = await signedInStaff(t);
    await requestChanges(staff, customer.registrationId);
    receiver.answers.push({ status: 302, headers: { location: `${receiver.url}/elsewhere` } });
    const now = dueNow();
    await worker.tick(now);
    expect(receiver.received.map((post) => post.path)).toEqual(['/hooks']);
    let [delivery] = (await deliveries(customer.client)).data;
    expect(delivery!.attempts[0]).toMatchObject({
      statusCode: 302,
      error: 'redirect (302) refused: not followed',
    });
    receiver.answers.push('hang');
    const quick = newWorker({ timeoutMs: 200 });
    await quick.tick(await dueAt(delivery!.id));
    [delivery] = (await deliveries(customer.client)).data;
    expect(delivery!.attempts[1]).toMatchObject({
      statusCode: null,
      error: 'timed out after 200 ms',
    });
    // A production worker never connects to loopback, whatever the endpoint says.
    const production = new DeliveryWorker({
      pool: t.pool,
      fieldKeys: t.app.fieldKeys,
      production: true,
    });
    const posted = receiver.received.length;
    await production.tick(await dueAt(delivery!.id));
    expect(receiver.received).toHaveLength(posted);
    [delivery] = (await deliveries(customer.client)).data;
    expect(delivery!.attempts[2]).toMatchObject({
      statusCode: null,
      error: 'loopback address 127.0.0.1 refused in production',
    });
  });

  // Last: it seals every row of this database under a key the app is not given.
  it('rotate-key seals the signing secrets again: with the old key removed, posts still verify', async () => {
    const { customer, endpoint, secret } = await partnerWithEndpoint();
    // Queued before the rotation: the app itself keeps only the old key.
    await requestChanges(await signedInStaff(t), customer.registrationId);
    const next = newFieldKey('next');
    const counts = await rotateFieldKeys(
      t.pool,
      parseFieldKeys(`${next},${t.config.fieldEncryptionKeys}`),
      t.app.forms,
    );
    expect(counts.unreadable).toEqual([]);
    const stored = await t.pool.query<{ secret: { secret: { $sealed: string } } }>(
      'select secret from webhook_endpoints where id = $1',
      [endpoint.id],
    );
    expect(stored.rows[0]!.secret.secret.$sealed).toMatch(/^v1\.next\./);
    const rotated = new DeliveryWorker({
      pool: t.pool,
      fieldKeys: parseFieldKeys(next),
      production: false,
    });
    const now = dueNow();
    expect(await rotated.tick(now)).toBe(1);
    const [post] = receiver.received;
    const header = String(post!.headers['northstar-signature']);
    expect(verifyWebhook(secret, header, post!.body, Math.floor(now.getTime() / 1000))).toBe(true);
  });

  it('replaces a signing secret: shown once, audited; both sign for the overlap, then the new alone', async () => {
    const { customer, endpoint, secret: oldSecret } = await partnerWithEndpoint();
    const since = new Date(Date.now() - 1000);
    const rolled = await customer.client.post(`${W}/endpoints/${endpoint.id}/secret`, {
      overlapHours: 24,
    });
    expect(rolled.statusCode, rolled.body).toBe(200);
    const answer = rolled.json() as { id: string; secret: string; previousSecretExpiresAt: string };
    expect(answer.id).toBe(endpoint.id);
    expect(answer.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(answer.secret).not.toBe(oldSecret);
    const until = new Date(answer.previousSecretExpiresAt).getTime();
    expect(Math.abs(until - (Date.now() + 24 * 3_600_000))).toBeLessThan(60_000);
    // Shown once: neither listed nor stored in the clear.
    const listed = await customer.client.get(`${W}/endpoints`);
    expect(listed.body).not.toContain(answer.secret);
    const stored = await t.pool.query('select secret::text from webhook_endpoints where id = $1', [
      endpoint.id,
    ]);
    expect(stored.rows[0].secret).not.toContain(answer.secret.slice(6));
    expect(stored.rows[0].secret).not.toContain(oldSecret.slice(6));
    const audited = await t.pool.query(
      `select actor_user_id, detail from audit_log
        where action = 'webhook.endpoint-secret-rolled' and at >= $1`,
      [since],
    );
    expect(audited.rows).toEqual([
      {
        actor_user_id: expect.any(String),
        detail: {
          organizationId: customer.organizationId,
          endpointId: endpoint.id,
          overlapHours: 24,
        },
      },
    ]);

    // During the overlap: two v1 signatures, the new secret's first; either secret verifies.
    const staff = await signedInStaff(t);
    await requestChanges(staff, customer.registrationId);
    const now = dueNow();
    expect(await worker.tick(now)).toBe(1);
    const during = receiver.received[0]!;
    const header = String(during.headers['northstar-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    const seconds = Math.floor(now.getTime() / 1000);
    expect(verifyWebhook(answer.secret, header, during.body, seconds)).toBe(true);
    expect(verifyWebhook(oldSecret, header, during.body, seconds)).toBe(true);
    const [, newMac] = header.split(',');
    expect(verifyWebhook(oldSecret, `t=${seconds},${newMac}`, during.body, seconds)).toBe(false);

    // After it: the new secret alone.
    const resend = await customer.client.post(
      `${W}/deliveries/${String(during.headers['northstar-delivery-id'])}/resend`,
    );
    expect(resend.statusCode).toBe(202);
    const later = new Date(until + 1000);
    expect(await worker.tick(later)).toBe(1);
    const after = receiver.received[1]!;
    const afterHeader = String(after.headers['northstar-signature']);
    expect(afterHeader.match(/v1=/g)).toHaveLength(1);
    const laterSeconds = Math.floor(later.getTime() / 1000);
    expect(verifyWebhook(answer.secret, afterHeader, after.body, laterSeconds)).toBe(true);
    expect(verifyWebhook(oldSecret, afterHeader, after.body, laterSeconds)).toBe(false);
  });

  it('replaces a leaked secret at once with overlapHours 0; refuses others and unknown endpoints', async () => {
    const { customer, endpoint, secret: oldSecret } = await partnerWithEndpoint();
    const rolled = await customer.client.post(`${W}/endpoints/${endpoint.id}/secret`, {
      overlapHours: 0,
    });
    expect(rolled.statusCode, rolled.body).toBe(200);
    expect(rolled.json().previousSecretExpiresAt).toBeNull();
    const staff = await signedInStaff(t);
    await requestChanges(staff, customer.registrationId);
    const now = dueNow();
    expect(await worker.tick(now)).toBe(1);
    const post = receiver.received[0]!;
    const header = String(post.headers['northstar-signature']);
    const seconds = Math.floor(now.getTime() / 1000);
    expect(header.match(/v1=/g)).toHaveLength(1);
    expect(verifyWebhook(rolled.json().secret, header, post.body, seconds)).toBe(true);
    expect(verifyWebhook(oldSecret, header, post.body, seconds)).toBe(false);

    const tooLong = await customer.client.post(`${W}/endpoints/${endpoint.id}/secret`, {
      overlapHours: 169,
    });
    expect(tooLong.statusCode).toBe(400);
    const unknown = await customer.client.post(`${W}/endpoints/${crypto.randomUUID()}/secret`, {});
    expect(unknown.statusCode).toBe(404);
    const other = await registeredCustomer(t);
    const notTheirs = await other.client.post(`${W}/endpoints/${endpoint.id}/secret`, {});
    expect(notTheirs.statusCode).toBe(404);
    const member = await signedIn(t);
    const notAdministrator = await member.client.post(`${W}/endpoints/${endpoint.id}/secret`, {});
    expect(notAdministrator.statusCode).toBe(403);
  });

  it('deletes deliveries done or given up beyond the retention, and their events; never a pending one', async () => {
    const { customer, endpoint } = await partnerWithEndpoint([
      'registration.changes_requested',
      'registration.approved',
    ]);
    const staff = await signedInStaff(t);
    await requestChanges(staff, customer.registrationId);
    expect(await worker.tick(dueNow())).toBe(1);
    const rows = async () =>
      (
        await t.pool.query<{ id: string; event_id: string; state: string }>(
          'select id, event_id, state from webhook_deliveries where endpoint_id = $1 order by seq',
          [endpoint.id],
        )
      ).rows;
    const [delivered] = await rows();
    expect(delivered!.state).toBe('delivered');
    // A delivery given up, and one still pending (its event as old as the others).
    const second = await customer.client.post(`${W}/deliveries/${delivered!.id}/resend`);
    const third = await customer.client.post(`${W}/deliveries/${delivered!.id}/resend`);
    await t.pool.query(
      `update webhook_deliveries set state = 'failed', completed_at = now() where id = $1`,
      [second.json().id],
    );
    // A pending delivery of another, old event (the registration's approval) on the same endpoint.
    await withTransaction(t.pool, (db) =>
      recordStatusChange(db, {
        registrationId: customer.registrationId,
        status: 'approved',
        changedBy: null,
        actor: 'operator',
      }),
    );
    const all = await rows();
    const pending = all.find((row) => row.event_id !== delivered!.event_id)!;
    expect(pending.state).toBe('pending');
    // Make them all 31 days old, but the resend `third`, completed a day ago.
    await t.pool.query(
      `update webhook_deliveries set completed_at = now() - interval '31 days',
              created_at = now() - interval '31 days' where endpoint_id = $1 and state <> 'pending'`,
      [endpoint.id],
    );
    await t.pool.query(
      `update webhook_deliveries set state = 'delivered', completed_at = now() - interval '1 day'
        where id = $1`,
      [third.json().id],
    );
    await t.pool.query(
      `update webhook_events set created_at = now() - interval '31 days' where id = any ($1)`,
      [all.map((row) => row.event_id)],
    );

    // While another instance holds the cleanup's lock, this one does nothing.
    const holder = await t.pool.connect();
    try {
      await holder.query('begin');
      await holder.query(`select pg_advisory_xact_lock(hashtext('webhook-deliveries-cleanup'))`);
      expect(await cleanUpDeliveries(t.pool, 30)).toBeNull();
      expect(await rows()).toHaveLength(all.length);
    } finally {
      await holder.query('rollback');
      holder.release();
    }

    expect(await cleanUpDeliveries(t.pool, 30)).toEqual({ deliveries: 2, events: 0 });
    const left = await rows();
    expect(left.map((row) => row.id).sort()).toEqual([third.json().id, pending.id].sort());
    const attempts = await t.pool.query(
      'select 1 from webhook_delivery_attempts where delivery_id = $1',
      [delivered!.id],
    );
    expect(attempts.rowCount).toBe(0);
    // The first event stays while the recent resend names it; the pending one's stays too.
    await t.pool.query(
      `update webhook_deliveries set completed_at = now() - interval '31 days' where id = $1`,
      [third.json().id],
    );
    expect(await cleanUpDeliveries(t.pool, 30)).toEqual({ deliveries: 1, events: 1 });
    const events = await t.pool.query('select id from webhook_events where id = any ($1)', [
      all.map((row) => row.event_id),
    ]);
    expect(events.rows).toEqual([{ id: pending.event_id }]);
    expect((await rows()).map((row) => row.id)).toEqual([pending.id]);
  });

  it('a listening server posts a queued delivery by itself, with no tick by hand', async () => {
    const { customer, secret } = await partnerWithEndpoint();
    // Another instance on the same database, listening, looking every 50 ms.
    const pool = new pg.Pool({ connectionString: await connectionString(t.pool) });
    const server = await buildApp({
      config: { ...t.config, webhookPollMs: 50 },
      pool,
      mailer: createOutboxMailer(() => {}),
      logger: false,
    });
    try {
      await server.listen({ port: 0, host: '127.0.0.1' });
      const staff = await signedInStaff(t);
      await requestChanges(staff, customer.registrationId);
      const started = Date.now();
      while (receiver.received.length === 0 && Date.now() - started < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(receiver.received).toHaveLength(1);
      const post = receiver.received[0]!;
      expect(verifyWebhook(secret, String(post.headers['northstar-signature']), post.body)).toBe(
        true,
      );
    } finally {
      await server.close();
      await pool.end();
    }
  });
});

/** The connection string of the pool's database, for a second pool (a second instance). */
async function connectionString(pool: pg.Pool): Promise<string> {
  const options = (pool as unknown as { options: pg.PoolConfig }).options;
  if (options.connectionString) return options.connectionString;
  throw new Error('the test pool has no connection string');
}
