/**
 * What load balancers and monitoring ask: /healthz (the process), /readyz (the database, 503 when
 * it is stopped), /metrics (Prometheus, only to the addresses METRICS_ALLOW names).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { readConfig } from '../../src/server/config';
import { createPool } from '../../src/server/db/database';
import { startEmbeddedPostgres } from '../../src/server/db/embeddedPostgres';
import { migrate } from '../../src/server/db/migrate';
import { createOutboxMailer } from '../../src/server/mail/mailer';
import { METRICS_REFUSED_MESSAGE, metricsAllowList } from '../../src/server/plugins/operations';
import { signedInStaff } from './adminHelpers';
import { createTestApp, type TestApp } from './testApp';

describe('health and readiness', () => {
  it('answers /healthz always and /readyz only while the database answers', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-ready-test-'));
    fs.chmodSync(dataDir, 0o755);
    const server = await startEmbeddedPostgres(dataDir);
    const pool = createPool(server.connectionString);
    try {
      await migrate(pool);
      const app = await buildApp({
        config: {
          ...readConfig({ NODE_ENV: 'test', PASSWORD_COST: '10' }),
          webDir: '/nonexistent',
          dataDir,
        },
        pool,
        mailer: createOutboxMailer(() => {}),
        logger: false,
      });
      await app.ready();
      try {
        const ready = await app.inject({ method: 'GET', url: '/readyz' });
        expect(ready.statusCode).toBe(200);
        expect(ready.json()).toEqual({ status: 'ready' });
        expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

        await server.stop(); // the database is stopped (cleanly: no supervisor restarts it)
        const notReady = await app.inject({ method: 'GET', url: '/readyz' });
        expect(notReady.statusCode).toBe(503);
        expect(notReady.headers['retry-after']).toMatch(/^\d+$/);
        expect(notReady.json()).toEqual({
          errorMessage: expect.stringContaining('cannot reach its database'),
          code: 'unavailable',
        });
        const health = await app.inject({ method: 'GET', url: '/healthz' });
        expect(health.statusCode).toBe(200);
        expect(health.json()).toEqual({ status: 'ok' });
        // A load balancer's HEAD probe is answered the same way.
        expect((await app.inject({ method: 'HEAD', url: '/healthz' })).statusCode).toBe(200);
      } finally {
        await app.close();
      }
    } finally {
      await pool.end().catch(() => {});
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const metrics = (app = t.app, remoteAddress = '127.0.0.1', headers = {}) =>
    app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

  it('answers this machine with request rates and latencies by matched route, pool, hashing and stream figures', async () => {
    const staff = await signedInStaff(t);
    const id = '00000000-0000-4000-8000-00000000abcd';
    await staff.client.get(`/clearing/admin/registrations/${id}`);
    const response = await metrics();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const text = response.body;
    expect(text).toMatch(
      /http_requests_total\{method="POST",route="\/exchange\/api\/web\/auth\/signin",status_code="200"\} [1-9]/,
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/clearing/admin/registrations/:id",status_code="404"}',
    );
    // Routes, not URLs: no id (or token) of a request becomes a label.
    expect(text).not.toContain(id);
    for (const name of [
      'portal_db_pool_connections{state="total"}',
      'portal_db_pool_waiting',
      'portal_password_hash_running',
      'portal_password_hash_waiting',
      'portal_market_stream_clients 0',
      'process_resident_memory_bytes',
    ]) {
      expect(text).toContain(name);
    }
  });

  it('keeps probes and scrapes out of the request log', async () => {
    const lines: string[] = [];
    const logged = await buildApp({
      config: t.config,
      pool: t.pool,
      mailer: t.mailer,
      logger: { level: 'info', stream: { write: (line) => lines.push(line) } },
    });
    try {
      for (const url of ['/healthz', '/readyz', '/metrics', '/exchange/api/web/config']) {
        expect((await logged.inject({ method: 'GET', url })).statusCode).toBe(200);
      }
      const requests = lines.filter((line) => line.includes('request completed')).join('\n');
      expect(requests).toContain('/exchange/api/web/config');
      for (const probe of ['/healthz', '/readyz', '/metrics'])
        expect(requests).not.toContain(probe);
    } finally {
      await logged.close();
    }
  });

  it('refuses an address METRICS_ALLOW does not name, and a forged X-Forwarded-For', async () => {
    const refused = await metrics(t.app, '10.1.2.3');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ errorMessage: METRICS_REFUSED_MESSAGE, code: 'forbidden' });
    // No TRUST_PROXY: the header is the client's own words and changes nothing.
    const forged = await metrics(t.app, '10.1.2.3', { 'x-forwarded-for': '127.0.0.1' });
    expect(forged.statusCode).toBe(403);
  });

  it('answers the configured range only, through a trusted proxy by the forwarded address', async () => {
    const other = await createTestApp({
      metricsAllow: ['192.0.2.0/24'],
      trustProxy: ['10.9.9.9'],
    });
    try {
      expect((await metrics(other.app, '127.0.0.1')).statusCode).toBe(403);
      expect((await metrics(other.app, '192.0.2.55')).statusCode).toBe(200);
      const viaProxy = { 'x-forwarded-for': '192.0.2.10' };
      expect((await metrics(other.app, '10.9.9.9', viaProxy)).statusCode).toBe(200);
      // From an address that is not the trusted proxy, the header is ignored.
      expect((await metrics(other.app, '10.9.9.8', viaProxy)).statusCode).toBe(403);
      const outside = { 'x-forwarded-for': '198.51.100.1' };
      expect((await metrics(other.app, '10.9.9.9', outside)).statusCode).toBe(403);
    } finally {
      await other.close();
    }
  });

  it('reads METRICS_ALLOW: loopback by default, a bad entry named in a sentence', () => {
    expect(readConfig({}).metricsAllow).toEqual(['127.0.0.1', '::1']);
    expect(readConfig({ METRICS_ALLOW: '10.0.0.0/8, 2001:db8::/32' }).metricsAllow).toEqual([
      '10.0.0.0/8',
      '2001:db8::/32',
    ]);
    const list = metricsAllowList(['::1', '10.0.0.0/8']);
    expect(list.check('10.200.1.1', 'ipv4')).toBe(true);
    for (const bad of ['localhost', '10.0.0.0/33', '10.0.0.1/', '1.2.3.4/8/9']) {
      expect(() => metricsAllowList([bad])).toThrow(
        `METRICS_ALLOW: "${bad}" is not an IP address or a CIDR range.`,
      );
    }
  });
});
