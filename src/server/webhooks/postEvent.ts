/**
 * One attempt to post an event: a POST with a deadline, no redirect followed (a 3xx is a failed
 * attempt), only to an allowed address (endpointAddress.ts, checked on the connection itself),
 * the answer read no further than its first 64 KiB and kept as a 500-character excerpt.
 */
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { guardedLookup, literalHostRefusal, RefusedAddressError } from './endpointAddress';

/** What an attempt came to, as recorded. */
export interface PostOutcome {
  ok: boolean;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
  durationMs: number;
}

const READ_LIMIT = 64 * 1024;
const EXCERPT_LENGTH = 500;

interface PostOptions {
  production: boolean;
  /** The whole attempt's deadline: connecting, sending and the answer's head and body. */
  timeoutMs: number;
}

/** Posts `body` with `headers` to `url` once. Never throws: a failure is an outcome. */
export async function postEvent(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const refused = literalHostRefusal(target, options.production);
  if (refused) {
    return { ok: false, statusCode: null, responseExcerpt: null, error: refused, durationMs: 0 };
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const request = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup(options.production),
      // A connection of its own each time: no socket kept to a host that may move.
      agent: false,
    });
    const deadline = setTimeout(() => {
      request.destroy();
      finish({
        ok: false,
        statusCode: null,
        responseExcerpt: null,
        error: `timed out after ${options.timeoutMs} ms`,
      });
    }, options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error instanceof RefusedAddressError ? error.message : (error.code ?? error.message);
      finish({ ok: false, statusCode: null, responseExcerpt: null, error: reason });
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const status = response.statusCode ?? 0;
        const text = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_LENGTH);
        const ok = status >= 200 && status < 300;
        let error: string | null = null;
        if (status >= 300 && status < 400) error = `redirect (${status}) refused: not followed`;
        else if (!ok) error = `answered ${status}`;
        finish({ ok, statusCode: status, responseExcerpt: text, error });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= READ_LIMIT) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}
