import type { FastifyInstance, FastifyRequest } from 'fastify';

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
