import http from 'node:http';
import fp from 'fastify-plugin';
import type { Socket } from 'node:net';
import { defaultErrorCode } from '../../shared/api/http';

/**
 * Answers requests Node's HTTP parser rejects before Fastify sees them (headers too large, a
 * malformed request line, a client timeout) with the portal's JSON error shape, so every 4xx
 * carries an `errorMessage` (Fastify's default writes `message` instead).
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long. Please try again.']
        : [400, 'The request could not be read.'];
  const body = JSON.stringify({ errorMessage: message, code: defaultErrorCode(status) });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * A refusal some plugin sends without a body (the WebSocket route answering a plain GET with a
 * bare 404, say) still gets the portal's error shape, and one sent as `{ errorMessage }` without
 * a `code` gets its status's (issue 40 §3): every refusal carries one.
 */
export const errorBodyPlugin = fp(async (app) => {
  app.addHook('preSerialization', (_request, reply, payload, done) => {
    if (reply.statusCode < 400 || typeof payload !== 'object' || payload === null) {
      return done(null, payload);
    }
    const body = payload as { errorMessage?: unknown; code?: unknown };
    if (typeof body.errorMessage !== 'string' || body.code !== undefined) {
      return done(null, payload);
    }
    done(null, { ...body, code: defaultErrorCode(reply.statusCode) });
  });
  // Callback hooks on every answer's path: no promise per request (also below, in the plugins).
  app.addHook('onSend', (request, reply, payload, done) => {
    const empty = payload === undefined || payload === null || payload === '';
    if (!empty || reply.statusCode < 400 || request.method === 'HEAD') return done(null, payload);
    void reply.type('application/json; charset=utf-8');
    const text = http.STATUS_CODES[reply.statusCode] ?? 'The request could not be handled';
    const code = defaultErrorCode(reply.statusCode);
    done(null, JSON.stringify({ errorMessage: `${text}.`, code }));
  });
});
