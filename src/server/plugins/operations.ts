/**
 * What load balancers and monitoring ask of each instance:
 * - `GET /healthz`: the process answers (200), without touching the database;
 * - `GET /readyz`: the database answers too (200), else 503 with Retry-After, so a balancer sends
 *   no traffic to an instance that would only answer 503s;
 * - `GET /metrics`: Prometheus metrics (prom-client), answered only to the addresses
 *   `METRICS_ALLOW` names, judged on `request.ip` (the socket's peer, or X-Forwarded-For only
 *   through TRUST_PROXY, as everywhere else in the app).
 * Probes log at `warn`, so a balancer polling every few seconds adds no request lines.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import client from 'prom-client';
import { passwordHashQueue } from '../auth/hashQueue';
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  pingDatabase,
  RETRY_AFTER_SECONDS,
} from '../db/availability';
import { RequestMetrics } from './requestMetrics';

/** How long readiness waits for the database before saying it is not ready. */
const READY_QUERY_TIMEOUT_MS = 2000;

export const METRICS_REFUSED_MESSAGE =
  'Metrics are answered only to the addresses METRICS_ALLOW names.';

/**
 * The addresses `METRICS_ALLOW` names, as a block list to match against. An entry that is neither
 * an address nor a CIDR range stops the start with a sentence naming it.
 */
export function metricsAllowList(entries: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = net.isIP(address ?? '');
    const prefix = bits === undefined ? undefined : Number(bits);
    const valid =
      family !== 0 &&
      extra === undefined &&
      (prefix === undefined ||
        (bits !== '' &&
          Number.isInteger(prefix) &&
          prefix >= 0 &&
          prefix <= (family === 4 ? 32 : 128)));
    if (!valid) {
      throw new Error(`METRICS_ALLOW: "${entry}" is not an IP address or a CIDR range.`);
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, prefix, type);
  }
  return list;
}

/** Whether `ip` (as Fastify reports it; an IPv4 peer may arrive IPv6-mapped) is on the list. */
function addressAllowed(list: net.BlockList, ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  const family = net.isIP(address);
  if (family === 0) return false;
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export const operationsPlugin = fp(
  async (app: FastifyInstance) => {
    const allowed = metricsAllowList(app.config.metricsAllow);
    // A registry per app: tests build many apps in one process.
    const registry = new client.Registry();
    client.collectDefaultMetrics({ register: registry });

    // The requests by method, matched route and status code (requestMetrics.ts: counted without
    // prom-client's per-call label hashing, on every answer's path).
    const requests = new RequestMetrics();
    requests.register(registry);
    const pool = app.db;
    new client.Gauge({
      name: 'portal_db_pool_connections',
      help: 'Database connections this instance holds, by state.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new client.Gauge({
      name: 'portal_db_pool_waiting',
      help: 'Queries waiting for a free database connection.',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
    new client.Gauge({
      name: 'portal_password_hash_running',
      help: 'Password hashes running now.',
      registers: [registry],
      collect() {
        this.set(passwordHashQueue.active);
      },
    });
    new client.Gauge({
      name: 'portal_password_hash_waiting',
      help: 'Password hashes waiting in the fair queue.',
      registers: [registry],
      collect() {
        this.set(passwordHashQueue.queued);
      },
    });
    new client.Gauge({
      name: 'portal_market_stream_clients',
      help: 'Live-market WebSocket clients this instance serves.',
      registers: [registry],
      collect() {
        this.set(app.hasDecorator('marketStreamClients') ? app.marketStreamClients() : 0);
      },
    });

    app.addHook('onResponse', (request, reply, done) => {
      // The matched route's pattern, never the raw URL: ids and tokens stay out, and the number
      // of series stays bounded (every unmatched path counts as one).
      requests.observe(
        request.method,
        request.routeOptions.url ?? '(unmatched)',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });

    const quiet = { logLevel: 'warn' as const };

    app.get('/healthz', quiet, async () => ({ status: 'ok' }));

    app.get('/readyz', quiet, async (request, reply) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          pingDatabase(pool),
          new Promise((_resolve, reject) => {
            timer = setTimeout(
              () => reject(new Error('the database did not answer in time')),
              READY_QUERY_TIMEOUT_MS,
            );
          }),
        ]);
        return { status: 'ready' };
      } catch (error) {
        request.log.warn({ reason: (error as Error).message }, 'not ready: database');
        return reply
          .code(503)
          .header('retry-after', String(RETRY_AFTER_SECONDS))
          .send({ errorMessage: DATABASE_UNAVAILABLE_MESSAGE });
      } finally {
        clearTimeout(timer);
      }
    });

    app.get('/metrics', quiet, async (request, reply) => {
      if (!addressAllowed(allowed, request.ip)) {
        return reply.code(403).send({ errorMessage: METRICS_REFUSED_MESSAGE });
      }
      return reply
        .header('cache-control', 'no-store')
        .type(registry.contentType)
        .send(await registry.metrics());
    });
  },
  { name: 'operations' },
);
