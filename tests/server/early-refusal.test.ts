import net from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedDocuments, toPayload } from '../../src/shared/forms/payload/payload';
import { CSRF_COOKIE, CSRF_HEADER } from '../../src/shared/api/http';
import { MULTIPART_BODY_LIMIT } from '../../src/server/storage/uploadLimits';
import { largePdf, scriptedPdf } from '../fixtures/pdfs';
import { formDataBody, multipart, signedIn, uniqueEmail, type Part } from './authHelpers';
import { IndividualRegistration, storedFiles, URL_INDIVIDUAL } from './registrationHelpers';
import { createTestApp, type TestApp, type TestClient } from './testApp';
import { testForm } from '../forms';

const API = '/exchange/api/web';
/** Larger than what loopback's socket buffers hold: a server that stops reading stalls it. */
const LARGE = 16 * 1024 * 1024;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One client connection speaking HTTP/1.1 by hand, as a browser keeps one per origin: requests
 * go out one after another on the same socket, answers are read as they come, whatever the
 * upload is doing (Node's own client stops writing once an answer has come).
 */
class Connection {
  private readonly socket: net.Socket;
  private received = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  /** 'end': the server sent its FIN; an Error: the connection broke (a reset). */
  readonly closed: Promise<'end' | Error>;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake?.();
    });
    this.closed = new Promise((resolve) => {
      this.socket.on('end', () => resolve('end'));
      this.socket.on('error', resolve);
    });
  }

  /**
   * Writes a request head and its body as fast as the server reads; resolves once all of it has
   * been handed over. A server that stops reading leaves this pending.
   */
  async send(head: string, body: Buffer = Buffer.alloc(0)): Promise<void> {
    await this.write(Buffer.from(head));
    for (let at = 0; at < body.length; at += 256 * 1024) {
      await this.write(body.subarray(at, at + 256 * 1024));
    }
  }

  /** Keeps writing `chunk` (a client still uploading) until the connection closes. */
  keepUploading(chunk: Buffer): void {
    const next = () => {
      if (this.socket.writable) this.socket.write(chunk, () => setImmediate(next));
    };
    next();
  }

  /** The next answer on the connection (a Content-Length body). */
  async answer(): Promise<Answer> {
    for (;;) {
      const end = this.received.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine, ...lines] = this.received.subarray(0, end).toString().split('\r\n');
        const headers = Object.fromEntries(
          lines.map((line) => {
            const colon = line.indexOf(':');
            return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
          }),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (this.received.length >= end + 4 + length) {
          const body = this.received.subarray(end + 4, end + 4 + length).toString();
          this.received = this.received.subarray(end + 4 + length);
          return { status: Number(statusLine!.split(' ')[1]), headers, body };
        }
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  private write(bytes: Buffer): Promise<void> {
    return new Promise((resolve, reject) =>
      this.socket.write(bytes, (error) => (error ? reject(error) : resolve())),
    );
  }
}

/**
 * Issue 18: an answer given before the request's body has all arrived (a file refused while the
 * rest is still uploading, a refusal before the handler reads) must not leave the client's
 * upload stalled. A browser reads no answer until its upload is sent, so the server reads the
 * rest of the body and drops it; the connection then serves the next request. Real HTTP over a
 * socket (inject() has no socket to stall).
 */
describe('an early refusal of a large multipart request', () => {
  let t: TestApp;
  let port: number;
  let registration: IndividualRegistration;
  let large: Buffer;
  let brokenPng: Buffer;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
    registration = await IndividualRegistration.create();
    large = await largePdf(LARGE);
    // A photo whose pixels were cut off: the server cannot decode it and refuses it.
    const png = await sharp({
      create: {
        width: 64,
        height: 64,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 120, sigma: 40 },
      },
    })
      .png()
      .toBuffer();
    brokenPng = png.subarray(0, png.length / 2);
  });
  afterAll(async () => t.close());

  /**
   * POSTs `body` on a new connection; resolves with the answer once the whole body has also
   * gone out (the server read it), leaving the connection open for the next request.
   */
  async function post(path: string, headers: Record<string, string>, body: Buffer) {
    const connection = new Connection(port);
    const head =
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: ${body.length}\r\n` +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      '\r\n';
    const [answer] = await Promise.all([connection.answer(), connection.send(head, body)]);
    return { answer, connection };
  }

  /** The same connection answers the next request: it was left at a request boundary. */
  async function expectConnectionServesNext(connection: Connection) {
    await connection.send(`GET ${API}/config HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect((await connection.answer()).status).toBe(200);
    connection.destroy();
  }

  function cookieHeaders(client: TestClient): Record<string, string> {
    return {
      cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      [CSRF_HEADER]: client.cookies.get(CSRF_COOKIE) ?? '',
    };
  }

  /** The registration's multipart body as the browser sends it, with the files given. */
  function individualBody(email: string, files: Record<string, Buffer>) {
    const blob = (bytes: Buffer, type: string) => new Blob([new Uint8Array(bytes)], { type });
    const documents = Object.fromEntries(
      signedDocuments(testForm('individual')).map((d) => [
        d.url,
        blob(files['document']!, 'application/pdf'),
      ]),
    );
    const form = toPayload(
      testForm('individual'),
      registration.answersFor(email),
      {
        '/photoId': blob(files['/photoId']!, 'image/png'),
        '/photoIdBack': blob(files['/photoIdBack']!, 'image/png'),
        '/irsFormW2': blob(files['/irsFormW2']!, 'application/pdf'),
      },
      documents,
    );
    return formDataBody(form);
  }

  async function expectNothingStored(userId: string) {
    expect(await storedFiles(t)).toEqual([]);
    const rows = await t.pool.query('select 1 from registrations where user_id = $1', [userId]);
    expect(rows.rowCount).toBe(0);
  }

  it('a refused photo before a large W-2: the 400 arrives, the upload completes, nothing is stored', async () => {
    const user = await signedIn(t, uniqueEmail('early'));
    const { payload, contentType } = await individualBody(user.email, {
      '/photoId': brokenPng,
      '/photoIdBack': registration.png,
      '/irsFormW2': large,
      document: await scriptedPdf(),
    });
    expect(payload.length).toBeGreaterThan(LARGE);
    const { answer, connection } = await post(
      URL_INDIVIDUAL,
      { ...cookieHeaders(user.client), 'content-type': contentType },
      payload,
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).errorMessage).toMatch(/must be an image/);
    expect(answer.headers['connection']).toBe('keep-alive');
    await expectConnectionServesNext(connection);
    await expectNothingStored(user.id);
  });

  it('a refused W-2 after a large photo, before more files: the same', async () => {
    const user = await signedIn(t, uniqueEmail('late'));
    // A large valid image first (all read and checked), then the refusal, then large documents.
    const photo = await sharp({
      create: {
        width: 1400,
        height: 1400,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 120, sigma: 60 },
      },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const { payload, contentType } = await individualBody(user.email, {
      '/photoId': photo,
      '/photoIdBack': registration.png,
      '/irsFormW2': await scriptedPdf(),
      document: await largePdf(4 * 1024 * 1024),
    });
    const { answer, connection } = await post(
      URL_INDIVIDUAL,
      { ...cookieHeaders(user.client), 'content-type': contentType },
      payload,
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).errorMessage).toMatch(/contains active content/);
    await expectConnectionServesNext(connection);
    await expectNothingStored(user.id);
  });

  it.each([
    ['registration/user', 'photoId'],
    ['user/settings', 'photo_id'],
    ['auth/invite/accept', 'photo_id'],
  ])('%s: a refused photo before a large part', async (route, field) => {
    const user = await signedIn(t, uniqueEmail('photo'));
    const parts: Part[] = [
      { name: 'tag', value: 'add_kyc' },
      { name: 'access_token', value: 'not-a-token' },
      { name: field, filename: 'photo.png', contentType: 'image/png', data: brokenPng },
      { name: 'padding', filename: 'scan.pdf', contentType: 'application/pdf', data: large },
    ];
    const { payload, headers } = multipart(parts);
    const { answer, connection } = await post(
      `${API}/${route}`,
      { ...cookieHeaders(user.client), ...headers },
      payload,
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).errorMessage).toMatch(/photo ID.* must be an image/);
    await expectConnectionServesNext(connection);
    expect(await storedFiles(t)).toEqual([]);
  });

  it.each([
    ['an unknown question', '/nope', 'large', /no file question at \/nope/],
    ['a refused photo', '/photoId', 'broken', /must be an image/],
  ])(
    'applications/:formId/files, %s before a large part: answered at once',
    async (_, pointer, data, message) => {
      const user = await signedIn(t, uniqueEmail('application'));
      const parts: Part[] = [
        { name: 'pointer', value: pointer },
        {
          name: 'file',
          filename: 'photo.png',
          contentType: 'image/png',
          data: data === 'large' ? large : brokenPng,
        },
        { name: 'padding', filename: 'scan.pdf', contentType: 'application/pdf', data: large },
      ];
      const { payload, headers } = multipart(parts);
      const { answer, connection } = await post(
        `${API}/applications/individual/files`,
        { ...cookieHeaders(user.client), ...headers },
        payload,
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).errorMessage).toMatch(message);
      await expectConnectionServesNext(connection);
      expect(await storedFiles(t)).toEqual([]);
    },
  );

  it('a refusal before the handler reads (signed out, no CSRF token): answered, the body dropped', async () => {
    const { payload, headers } = multipart([
      { name: 'tag', value: 'add_kyc' },
      { name: 'photo_id', filename: 'scan.pdf', contentType: 'application/pdf', data: large },
    ]);
    const { answer, connection } = await post(`${API}/user/settings`, headers, payload);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).errorMessage).toBeTruthy();
    await expectConnectionServesNext(connection);
  });

  it('a file over the size limit: 413 with its message, the rest dropped', async () => {
    const user = await signedIn(t, uniqueEmail('oversize'));
    const { payload, headers } = multipart([
      { name: 'tag', value: 'add_kyc' },
      {
        name: 'photo_id',
        filename: 'huge.png',
        contentType: 'image/png',
        data: Buffer.concat([large, large]),
      },
      { name: 'first_name', value: 'Avery' },
    ]);
    const { answer, connection } = await post(
      `${API}/user/settings`,
      { ...cookieHeaders(user.client), ...headers },
      payload,
    );
    expect(answer.status).toBe(413);
    // The part is named by the person form's prompt (schemas/common/person.schema.json).
    expect(JSON.parse(answer.body).errorMessage).toMatch(
      /^The file for .*photo ID.* is too large\.$/,
    );
    await expectConnectionServesNext(connection);
    expect(await storedFiles(t)).toEqual([]);
  });

  it('a body declared longer than the limits allow: 413 unread, Connection: close, our side half-closed first', async () => {
    const user = await signedIn(t, uniqueEmail('declared'));
    const connection = new Connection(port);
    const headers = cookieHeaders(user.client);
    await connection.send(
      `POST ${URL_INDIVIDUAL} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Content-Type: multipart/form-data; boundary=x\r\n` +
        `Content-Length: ${MULTIPART_BODY_LIMIT + 1}\r\n` +
        `Cookie: ${headers.cookie}\r\n${CSRF_HEADER}: ${headers[CSRF_HEADER]}\r\n\r\n`,
    );
    // The client goes on uploading; the server answers, then sends its FIN (not a reset).
    connection.keepUploading(Buffer.alloc(64 * 1024, 0x61));
    const answer = await connection.answer();
    expect(answer.status).toBe(413);
    expect(answer.headers['connection']).toBe('close');
    expect(JSON.parse(answer.body).errorMessage).toBe(
      'This submission is too large. Each file may be at most 20 MB.',
    );
    expect(await connection.closed).toBe('end');
    connection.destroy();
    expect(await storedFiles(t)).toEqual([]);
  });
});
