import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { createTestApp, TestClient, type TestApp } from './testApp';

const API = '/exchange/api/web';
const SECRET = 'SECRET-TOKEN-a1b2c3';
const EMAIL = 'private.person@example.test';

describe('logs carry no tokens or PII', () => {
  let t: TestApp;
  let app: FastifyInstance;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    // The test app is silent; this one logs at debug level into memory, on the same database.
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    app = await buildApp({
      config: t.config,
      pool: t.pool,
      mailer: t.mailer,
      logger: { level: 'debug', stream },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('never prints an access token, user id or email from URLs or bodies', async () => {
    const client = new TestClient(app);
    await client.get(`${API}/auth/signin?access_token=${SECRET}&email=${EMAIL}`);
    await client.get(`/clearing/user/verify-email?email=${EMAIL}&access_token=${SECRET}`);
    await client.get(`/clearing/user/reset-password?access_token=${SECRET}&user_id=${SECRET}`);
    await client.get(`/nowhere?access_token=${SECRET}`);
    await client.post(`${API}/auth/verify-email?access_token=${SECRET}`, {
      token: SECRET,
      email: EMAIL,
      password: 'Secret-Pass-1',
    });
    await client.post(`${API}/auth/signup`, { email: EMAIL, authOrigin: 'Clearing' });
    await client.post(`${API}/auth/signin`, { email: EMAIL, password: SECRET });
    const log = lines.join('');
    // The 8 requests were logged, one line each …
    expect(lines.filter((line) => line.includes('"request completed"')).length).toBe(8);
    expect(log).toContain('[redacted]'); // … with their secrets replaced
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain(EMAIL);
    expect(log).not.toContain('Secret-Pass-1');
  });
});
