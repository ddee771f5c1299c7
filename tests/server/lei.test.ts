import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { leiRecordPath } from '../../src/shared/api/lei';
import {
  FakeLeiRegistry as FakeRegistry,
  NON_US_LEI,
  UNKNOWN_LEI,
  US_LEI,
} from '../fakes/leiRegistry';
import { signedIn } from './authHelpers';
import { createTestApp, type TestApp } from './testApp';
import { testForm } from '../forms';

describe('GET lei-records/{lei}', () => {
  const registry = new FakeRegistry();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ leiApiUrl: await registry.start() });
  });
  afterAll(async () => {
    await t.close();
    await registry.stop();
  });
  beforeEach(async () => {
    registry.requests = [];
    registry.mode = 'ok';
    await t.pool.query('delete from lei_records');
  });

  it('looks the LEI up in the registry (JSON:API) and answers name, address and the non-US flag', async () => {
    const { client } = await signedIn(t);
    const response = await client.get(leiRecordPath(US_LEI.toLowerCase()));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      lei: US_LEI,
      legalName: 'Granite Ridge Mining Co.',
      addressLines: ['1700 Broadway', 'Suite 400'],
      city: 'Denver',
      region: 'CO',
      postalCode: '80290',
      country: 'US',
      isNonUs: false,
    });
    expect(registry.requests).toEqual([
      { path: `/api/v1/lei-records/${US_LEI}`, accept: 'application/vnd.api+json' },
    ]);
  });

  it('flags headquarters outside the United States', async () => {
    const { client } = await signedIn(t);
    const response = await client.get(leiRecordPath(NON_US_LEI));
    expect(response.json()).toMatchObject({ country: 'AU', region: 'NSW', isNonUs: true });
  });

  it('refuses an LEI whose check digits fail with the schema message, without a lookup', async () => {
    const { client } = await signedIn(t);
    const broken = US_LEI.slice(0, 18) + '13';
    const response = await client.get(leiRecordPath(broken));
    expect(response.statusCode).toBe(400);
    const messages = testForm('business').schema.properties!.lei!['x-lei'] as Record<
      string,
      string
    >;
    expect(response.json().errorMessage).toBe(messages.checksum);
    const short = await client.get(leiRecordPath('5493001KJ'));
    expect(short.statusCode).toBe(400);
    expect(short.json().errorMessage).toBe(messages.length);
    expect(registry.requests).toEqual([]);
  });

  it('answers from the database cache the second time, without asking the registry again', async () => {
    const { client } = await signedIn(t);
    await client.get(leiRecordPath(US_LEI));
    const again = await client.get(leiRecordPath(US_LEI));
    expect(again.statusCode).toBe(200);
    expect(again.json().legalName).toBe('Granite Ridge Mining Co.');
    expect(registry.requests).toHaveLength(1);
  });

  it('uses an answer another server instance cached in the database', async () => {
    const { client } = await signedIn(t);
    const cached = { lei: NON_US_LEI, legalName: 'Cached by another instance', addressLines: [] };
    await t.pool.query('insert into lei_records (lei, record) values ($1, $2)', [
      NON_US_LEI,
      JSON.stringify({
        ...cached,
        city: 'Sydney',
        region: null,
        postalCode: null,
        country: 'AU',
        isNonUs: true,
      }),
    ]);
    const response = await client.get(leiRecordPath(NON_US_LEI));
    expect(response.json().legalName).toBe('Cached by another instance');
    expect(registry.requests).toEqual([]);
  });

  it('answers 404 for an LEI the registry does not know, and caches that too', async () => {
    const { client } = await signedIn(t);
    const first = await client.get(leiRecordPath(UNKNOWN_LEI));
    expect(first.statusCode).toBe(404);
    expect(first.json().errorMessage).toBe('No legal entity is registered under this LEI.');
    await client.get(leiRecordPath(UNKNOWN_LEI));
    expect(registry.requests).toHaveLength(1);
  });

  it('answers 502 with a message when the registry is down, 503 when it is busy, caching neither', async () => {
    const { client } = await signedIn(t);
    registry.mode = 'down';
    const down = await client.get(leiRecordPath(US_LEI));
    expect(down.statusCode).toBe(502);
    expect(down.json().errorMessage).toBe(
      'The LEI registry could not be reached. Please try again later.',
    );
    registry.mode = 'busy';
    const busy = await client.get(leiRecordPath(US_LEI));
    expect(busy.statusCode).toBe(503);
    expect(busy.json().errorMessage).toMatch(/busy/);
    registry.mode = 'ok';
    expect((await client.get(leiRecordPath(US_LEI))).statusCode).toBe(200);
    expect(registry.requests).toHaveLength(3);
  });

  it('answers 502 when the registry cannot be reached at all', async () => {
    const unreachable = await createTestApp({ leiApiUrl: 'http://127.0.0.1:9/api/v1' });
    try {
      const { client } = await signedIn(unreachable);
      const response = await client.get(leiRecordPath(US_LEI));
      expect(response.statusCode).toBe(502);
      expect(response.json().errorMessage).toMatch(/could not be reached/);
    } finally {
      await unreachable.close();
    }
  });

  it('has its own rate limit: 20 lookups a minute per address, then 429 with a message', async () => {
    const { client } = await signedIn(t);
    for (let i = 0; i < 20; i++) {
      expect((await client.get(leiRecordPath(US_LEI))).statusCode).toBe(200);
    }
    const limited = await client.get(leiRecordPath(US_LEI));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errorMessage).toBe(
      'Too many LEI lookups. Please wait a minute and try again.',
    );
    expect(registry.requests).toHaveLength(1);
  });

  it('needs a signed-in user', async () => {
    const { client } = await signedIn(t);
    await client.post('/exchange/api/web/auth/signout');
    expect((await client.get(leiRecordPath(US_LEI))).statusCode).toBe(401);
    expect(registry.requests).toEqual([]);
  });
});
