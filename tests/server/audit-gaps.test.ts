/**
 * Issue 39 §5: what the audit trail missed. A request path holding a NUL (`%00`) made the admin
 * API's audit row fail in PostgreSQL's jsonb ("unsupported Unicode escape sequence"), so a
 * customer's probe left no row; an upload refused for what it held left no security event.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { hostilePdfs } from '../fixtures/pdf/corpus';
import { auditRows } from './adminHelpers';
import { signedIn } from './authHelpers';
import { IndividualRegistration } from './registrationHelpers';
import { createTestApp, TestClient, type TestApp } from './testApp';

describe('the audit trail’s gaps (issue 39 §5)', () => {
  let t: TestApp;
  let app: FastifyInstance;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    // The test app is silent; this one logs into memory, on the same database.
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
      logger: { level: 'info', stream },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('records a customer’s request to admin/user/nul%00probe (403), the NUL escaped, and logs no failure', async () => {
    const customer = await signedIn(t);
    const client = new TestClient(app);
    for (const [name, value] of customer.client.cookies) client.cookies.set(name, value);
    const since = new Date();
    for (let i = 0; i < 3; i++) {
      const response = await client.get('/exchange/api/admin/user/nul%00probe');
      expect(response.statusCode).toBe(403);
      expect(response.json().errorMessage).toBeTruthy();
    }
    const rows = (await auditRows(t, 'admin.api', since)).filter(
      (row) => row.actor_user_id === customer.id,
    );
    expect(rows).toHaveLength(3);
    expect(rows[0]!.detail).toMatchObject({
      method: 'GET',
      route: '/exchange/api/admin/user/:userId',
      status: 403,
      userId: 'nul\\u0000probe',
    });
    expect(lines.join('')).not.toMatch(/unsupported Unicode|admin audit failed/);
  });

  it('records an upload refused for active content, and one that is not what it claims, as security events', async () => {
    const registration = await IndividualRegistration.create();
    const { client, email, id } = await signedIn(t);
    const since = new Date();
    const [, hostile] = Object.entries(hostilePdfs())[0]!;
    const pdf = new Blob([new Uint8Array(hostile)], { type: 'application/pdf' });
    expect((await registration.submit(client, email, { '/irsFormW2': pdf })).statusCode).toBe(400);
    const script = new Blob(['<script>alert(1)</script>'], { type: 'image/png' });
    expect((await registration.submit(client, email, { '/photoId': script })).statusCode).toBe(400);
    const rows = await auditRows(t, 'upload.refused', since);
    expect(rows.map((row) => [row.actor_user_id, row.detail])).toEqual([
      [
        id,
        {
          reason: 'active-content',
          method: 'POST',
          route: '/exchange/api/web/registration/individual',
        },
      ],
      [
        id,
        {
          reason: 'not-an-image',
          method: 'POST',
          route: '/exchange/api/web/registration/individual',
        },
      ],
    ]);
  });
});
