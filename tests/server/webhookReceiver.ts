/**
 * A partner's webhook receiver on loopback for the server tests: a tiny node:http server that
 * keeps every request (headers and the body as sent) and answers what the test scripts, 200 by
 * default. The signature check is the one docs/api.md gives a partner.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the receiver answers a request: a status, a body, headers; or no answer at all. */
type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** The next answers, in order; after them, 200. */
  answers: Answer[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: Answer[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = answers.shift() ?? { status: 200, body: 'ok' };
      if (answer === 'hang') {
        hanging.push(response);
        return;
      }
      response.writeHead(answer.status, answer.headers ?? { 'content-type': 'text/plain' });
      response.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answers,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * docs/api.md's check, as a partner writes it: the header's `t` and any of its `v1`s (two while
 * a rolled secret's overlap lasts), the HMAC-SHA256 of `t.body` under the secret, compared in
 * constant time, and `t` no older than five minutes.
 */
export function verifyWebhook(
  secret: string,
  header: string,
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const fields = header.split(',').map((part) => part.split('=', 2));
  const t = fields.find(([name]) => name === 't')?.[1];
  const timestamp = Number(t);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return fields.some(([name, value]) => {
    const given = Buffer.from(name === 'v1' ? String(value) : '', 'hex');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
}
