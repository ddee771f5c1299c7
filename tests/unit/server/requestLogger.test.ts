import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestLogger } from '../../../src/server/logging';

/** A parent logger that records the children made from it and the lines they write. */
function parentLogger(level: string) {
  const children: object[] = [];
  const lines: unknown[][] = [];
  const write =
    (name: string) =>
    (...args: unknown[]) =>
      lines.push([name, ...args]);
  const child = {
    level,
    fatal: write('fatal'),
    error: write('error'),
    warn: write('warn'),
    info: write('info'),
    debug: write('debug'),
    trace: write('trace'),
    silent: () => {},
    child: () => child,
  };
  const parent = {
    ...child,
    child(bindings: object) {
      children.push(bindings);
      return child;
    },
  } as unknown as FastifyBaseLogger;
  return { parent, children, lines };
}

const make = (parent: FastifyBaseLogger, options = {}) =>
  requestLogger.call(
    Fastify(),
    parent,
    { reqId: 'r-1' },
    options,
    {} as Parameters<typeof requestLogger>[3],
  );

describe('requestLogger', () => {
  it('makes no child logger for a request that writes nothing its level lets through', () => {
    const { parent, children, lines } = parentLogger('warn');
    const log = make(parent);
    log.info({ req: 'x' }, 'request completed');
    log.debug('detail');
    expect(children).toEqual([]);
    expect(lines).toEqual([]);
    expect(log.level).toBe('warn');
  });

  it('writes through one child, with the request id, once a line passes the level', () => {
    const { parent, children, lines } = parentLogger('warn');
    const log = make(parent);
    log.warn({ incidentId: 'r-1' }, 'database unavailable');
    log.error('failed');
    expect(children).toEqual([{ reqId: 'r-1' }]);
    expect(lines).toEqual([
      ['warn', { incidentId: 'r-1' }, 'database unavailable'],
      ['error', 'failed'],
    ]);
  });

  it("follows a route's own level", () => {
    const { parent, lines } = parentLogger('info');
    const quiet = make(parent, { level: 'warn' });
    quiet.info('a probe');
    expect(lines).toEqual([]);
    make(parent).info('a request');
    expect(lines).toEqual([['info', 'a request']]);
  });

  it('gives Fastify the same lines, request id included', async () => {
    let output = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    const app = Fastify({
      logger: { level: 'info', stream },
      childLoggerFactory: requestLogger,
      genReqId: () => 'req-42',
    });
    app.get('/', async (request) => {
      request.log.info('handled');
      request.log.debug('not written');
      return { ok: true };
    });
    await app.inject('/');
    await app.close();
    const handled = output
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string; reqId?: string })
      .filter((line) => line.msg === 'handled' || line.msg === 'not written');
    expect(handled).toEqual([expect.objectContaining({ msg: 'handled', reqId: 'req-42' })]);
  });
});
