import client from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DURATION_BUCKETS, RequestMetrics } from '../../../src/server/plugins/requestMetrics';

const ANSWERS: [string, string, number, number][] = [
  ['GET', '/exchange/api/web/customer/:organizationId/statement', 304, 0.0004],
  ['GET', '/exchange/api/web/customer/:organizationId/statement', 304, 0.005], // on a bound
  ['GET', '/exchange/api/web/customer/:organizationId/statement', 200, 0.3],
  ['POST', '/exchange/api/web/auth/signin', 401, 0.42],
  ['GET', '(unmatched)', 404, 12], // above every bound
  ['GET', '/clearing/api/web/disclosures', 200, 0.0123],
];

describe('RequestMetrics', () => {
  it('writes the same exposition as prom-client’s labelled Counter and Histogram', async () => {
    const ours = new client.Registry();
    const metrics = new RequestMetrics();
    metrics.register(ours);

    const theirs = new client.Registry();
    const labelNames = ['method', 'route', 'status_code'] as const;
    const counter = new client.Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by method, matched route and status code.',
      labelNames,
      registers: [theirs],
    });
    const histogram = new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a request, by method, matched route and status code.',
      labelNames,
      buckets: [...DURATION_BUCKETS],
      registers: [theirs],
    });

    for (const [method, route, status, seconds] of ANSWERS) {
      metrics.observe(method, route, status, seconds);
      const labels = { method, route, status_code: String(status) };
      counter.inc(labels);
      histogram.observe(labels, seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      'http_requests_total{method="GET",route="/exchange/api/web/customer/:organizationId/statement",status_code="304"} 2',
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/exchange/api/web/customer/:organizationId/statement",status_code="304"} 2',
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="10",method="GET",route="(unmatched)",status_code="404"} 0',
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="(unmatched)",status_code="404"} 1',
    );
  });

  it('starts from nothing after a registry reset', async () => {
    const registry = new client.Registry();
    const metrics = new RequestMetrics();
    metrics.register(registry);
    metrics.observe('GET', '/healthz', 200, 0.001);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('/healthz');
  });
});
