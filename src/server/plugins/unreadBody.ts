import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';

/**
 * How long a connection closed after its answer still reads (and drops) what the client sends:
 * Apache's lingering close reads for 2 s; after that the client has had the answer's packets.
 */
const LINGER_MS = 2000;

/**
 * An answer sent before the request's body has all arrived (a file refused mid-upload, a refusal
 * before the handler reads, a body over its limit) must still reach the browser. A browser reads
 * no answer before its upload is sent (Chromium over HTTP/1.1), and an upload the server no
 * longer reads is never sent: the page would wait forever. So the rest of the body is read and
 * dropped, up to what the route could accept (the multipart limits for form data, else the
 * route's body limit), and the connection stays open for the next request.
 *
 * A body longer than that (declared, or found while dropping it) is answered with
 * `Connection: close`, and the connection closed as RFC 9112 §9.6 asks: the answer, then our
 * side's FIN, still reading and dropping for `LINGER_MS` so that no reset races the answer, then
 * the close. Chromium then reports the answer it received (tests/e2e/registration-failure.spec.ts).
 */
export const unreadBodyPlugin = fp<{ multipartBodyLimit: number }>(async (app, options) => {
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    // Whole body already here (or read: inject()'s requests have no `complete`), or no socket.
    if (raw.complete || raw.readableEnded || raw.destroyed) return done(null, payload);
    const limit = isFormData(raw)
      ? options.multipartBodyLimit
      : (request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0);
    const declared = Number(raw.headers['content-length']);
    if (declared > limit) {
      void reply.header('connection', 'close');
      // Node ends a `Connection: close` exchange with socket.destroySoon(): linger instead.
      const socket = raw.socket;
      socket.destroySoon = () => lingeringClose(socket);
    }
    dropRest(raw, limit, () => afterAnswer(reply.raw, () => lingeringClose(raw.socket)));
    done(null, payload);
  });
});

function isFormData(raw: IncomingMessage): boolean {
  return /^multipart\//i.test(raw.headers['content-type'] ?? '');
}

/**
 * Reads the rest of the body into nothing: whatever was reading it (the multipart parser) lets
 * go first. `overLimit` runs once if more than `limit` bytes arrive (a chunked body has no
 * declared length to judge it by).
 */
function dropRest(raw: IncomingMessage, limit: number, overLimit: () => void): void {
  raw.unpipe();
  let dropped = 0;
  raw.on('data', (chunk: Buffer) => {
    const before = dropped;
    dropped += chunk.length;
    if (before <= limit && dropped > limit) overLimit();
  });
  raw.resume();
}

function afterAnswer(response: ServerResponse, then: () => void): void {
  if (response.writableFinished) then();
  else response.once('finish', then);
}

/** Half-close (our FIN after the answer), keep reading for `LINGER_MS`, then close. */
function lingeringClose(socket: Socket): void {
  // inject()'s stand-in socket has no end(): there is no connection to close.
  if (socket.destroyed || typeof socket.end !== 'function') return;
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
