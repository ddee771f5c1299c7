import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

/** Query parameters whose values must never reach a log line (tokens in emailed links, PII). */
const SECRET_PARAMS = /([?&](?:access_token|token|user_id|email|code|totpCode)=)[^&#]*/gi;

/** The request URL with secrets replaced, for logs (Fastify logs the full URL by default). */
function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** Pino serializers that keep tokens and PII out of request logs. */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      remoteAddress: request.ip,
    };
  },
};

/**
 * One log line per request, when its answer is sent (Fastify's default writes two: received and
 * completed). The request serializer above keeps secrets out of the URL.
 */
export function logOneLinePerRequest(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { req: request, res: reply, responseTime: Math.round(reply.elapsedTime) },
      'request completed',
    );
    done();
  });
}

/** Pino's level values by name; `silent` is above every level. */
const LEVEL_VALUES: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, made (pino's `child`, with the request id) only when the request first writes
 * a line its level lets through. Fastify makes one per request otherwise: serialising its bindings
 * cost about 4 % of the CPU of a cached answer, where at the production level (`warn`) almost no
 * request writes anything. What is written is the same line either way.
 */
class RequestLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}
  private made(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings, this.options));
  }
  get level(): string {
    return this.#made?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.made().level = level;
  }
  private write(method: LogMethod, args: unknown[]): void {
    if ((LEVEL_VALUES[method] ?? 0) < (LEVEL_VALUES[this.level] ?? 0)) return;
    (this.made()[method] as (...line: unknown[]) => void)(...args);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made when first written to. */
export const requestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  parent,
  bindings,
  options,
) => new RequestLogger(parent, bindings, options);

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** A pino JSON line as a line a developer reads: time, level, request or message, error. */
export function readableLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now())
    .toISOString()
    .slice(11, 19);
  const level = (LEVELS[Number(entry.level)] ?? 'INFO').padEnd(5);
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  let text =
    req && res && entry.msg === 'request completed'
      ? `${req.method} ${req.url} ${res.statusCode} ${String(entry.responseTime)} ms`
      : String(entry.msg ?? '');
  if (entry.incidentId) text += ` (incident ${String(entry.incidentId)})`;
  const err = entry.err as { stack?: string; message?: string } | undefined;
  if (err) text += `\n${err.stack ?? err.message ?? ''}`;
  return `${time} ${level} ${text}`;
}

/** A pino destination writing readable lines (development: `npm start`, `npm run dev`). */
export function readableLogStream(write: (line: string) => void): { write(chunk: string): void } {
  return {
    write(chunk: string) {
      for (const json of chunk.split('\n')) if (json.trim()) write(readableLogLine(json));
    },
  };
}
