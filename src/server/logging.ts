import type { FastifyRequest } from 'fastify';

/** Query parameters whose values must never reach a log line (tokens in emailed links, PII). */
const SECRET_PARAMS = /([?&](?:access_token|token|user_id|email|code|totpCode)=)[^&#]*/gi;

/** The request URL with secrets replaced, for logs (Fastify logs the full URL by default). */
export function redactUrl(url: string): string {
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
