/**
 * `Idempotency-Key` on every state-changing POST (issue 40 §6), as Stripe's API takes it: a
 * client that did not hear the answer (a timeout, a dropped connection) sends the request again
 * with the same key, and gets the first answer again instead of a second registration or upload.
 *
 * - Keys belong to who sent them: the signed-in account, or the API credential (a key of one
 *   never answers another). A signed-out POST (sign-up, sign-in) ignores the header: it has no
 *   owner, and a sign-in's answer (its cookie) must never be handed out again.
 * - The same key with the same route and body (its bytes; a multipart body without its random
 *   boundary) within 24 hours answers the first answer again: its status, body and headers
 *   (content type, location, ETag; never a cookie), with `Idempotent-Replayed: true`. Another
 *   body, or another route, answers 422. While the first is still running, 409.
 * - The row is claimed (inserted) before the request runs, after its validation, so concurrent
 *   duplicates never both run; it is kept in PostgreSQL, so every instance agrees. An answer of
 *   429 or 5xx is not kept (the key may be tried again), nor one that never finished.
 * - A kept answer's body is encrypted (it may hold a secret shown once): `sealAnswer` below.
 * - Keys older than 24 hours are deleted by a background job, at most once a minute per instance.
 */
import crypto from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  claimIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  releaseIdempotencyKey,
  storeIdempotentAnswer,
} from '../db/idempotencyKeys';
import { badRequest, ClientError } from '../errors';
import type { FieldKeyRing } from '../fieldEncryption/keyRing';
import { openSealed, sealAt, type SealContext } from '../fieldEncryption/sealedJson';

const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Printable ASCII without spaces, up to 255 characters (a UUID is the usual choice). */
const KEY_PATTERN = '^[\\x21-\\x7e]{1,255}$';
const KEY = new RegExp(KEY_PATTERN);
/** The headers of an answer that are part of it; cookies never are. */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag', 'last-modified', 'cache-control'];
const CLEANUP_EVERY_MS = 60_000;

export const KEY_REUSED =
  'This Idempotency-Key was used with another request in the last 24 hours. Use a new key for a new request.';
export const KEY_IN_PROGRESS =
  'A request with this Idempotency-Key is still running. Try again in a moment.';

export const ANSWER_UNREADABLE =
  'The first answer to this Idempotency-Key can no longer be read. Use a new key to send the request again.';

/**
 * Where a kept answer's body is sealed: the key's own row. An answer may hold what is shown only
 * once (an API credential's or an endpoint's signing secret) or personal data: kept, it is
 * encrypted under the field encryption keys, as sensitive answers are, and bound to its owner
 * and key, so a body copied to another row does not open.
 */
const answerContext = (owner: string, key: string): SealContext => ({
  column: 'idempotency_keys.body',
  row: `${owner}\u0000${key}`,
});

function sealAnswer(ring: FieldKeyRing, owner: string, key: string, body: Buffer): Buffer {
  const document = { body: body.toString('base64') };
  return Buffer.from(JSON.stringify(sealAt(ring, document, ['/body'], answerContext(owner, key))));
}

/** A kept answer's body, or null when it cannot be opened (its key is gone from the ring). */
function openAnswer(ring: FieldKeyRing, owner: string, key: string, stored: Buffer): Buffer | null {
  try {
    const document = JSON.parse(stored.toString('utf8')) as unknown;
    const opened = openSealed(ring, document, answerContext(owner, key)) as { body?: unknown };
    return typeof opened.body === 'string' ? Buffer.from(opened.body, 'base64') : null;
  } catch {
    return null;
  }
}

/** A key this request claimed; a multipart body's hash, taken as the route reads it. */
interface Claim {
  owner: string;
  key: string;
  fingerprint: string | BodyTap;
}

const claims = new WeakMap<FastifyRequest, Claim>();

export const idempotencyPlugin = fp(
  async (app) => {
    let lastCleanup = 0;

    app.addHook('onRoute', (route) => {
      if (![route.method].flat().includes('POST')) return;
      // The hooks go on the POST routes alone: any other request passes nothing of this plugin
      // (a global async hook cost every request a promise; the statement's 304s felt it). They
      // run after the global ones and the route's own checks, so a refusal claims no key.
      route.preHandler = [...[route.preHandler ?? []].flat(), claimKey];
      route.onSend = [...[route.onSend ?? []].flat(), keepAnswer];
      // The document lists the header on each POST a session or a credential may send.
      if (!route.schema || route.schema.hide) return;
      const security = route.schema.security ?? [];
      if (!security.some((r) => 'sessionCookie' in r || 'apiCredential' in r)) return;
      const headers = (route.schema.headers ?? { type: 'object' }) as {
        properties?: Record<string, unknown>;
      };
      route.schema = {
        ...route.schema,
        headers: {
          ...headers,
          type: 'object',
          properties: {
            ...headers.properties,
            [IDEMPOTENCY_HEADER]: {
              type: 'string',
              pattern: KEY_PATTERN,
              description:
                'Optional. Sent again with the same body within 24 hours, the first answer comes ' +
                'back (`Idempotent-Replayed: true`) and nothing runs twice; with another body, 422.',
            },
          },
        },
      };
    });

    async function claimKey(request: FastifyRequest, reply: FastifyReply) {
      const key = request.headers[IDEMPOTENCY_HEADER];
      if (key === undefined) return;
      if (typeof key !== 'string' || !KEY.test(key)) {
        throw badRequest('The Idempotency-Key header must be 1 to 255 printable characters.');
      }
      const owner = await ownerOf(request);
      if (!owner) return;
      if (Date.now() - lastCleanup > CLEANUP_EVERY_MS) {
        lastCleanup = Date.now();
        app.backgroundJobs.run('idempotency-keys-expired', async () => {
          await deleteExpiredIdempotencyKeys(app.db);
        });
      }
      const route = request.routeOptions.url!;
      const boundary = boundaryOf(request);
      // A multipart body is read by the route itself, as it arrives (uploads are large): its hash
      // is taken on the way and kept with the answer.
      const known = boundary === null ? fingerprintOf(route, bodyHash(request.body)) : PENDING;
      const held = await claimIdempotencyKey(app.db, { owner, key, route, fingerprint: known });
      if (!held) {
        claims.set(request, {
          owner,
          key,
          fingerprint: boundary === null ? known : new BodyTap(request, boundary),
        });
        return;
      }
      if (held.status_code === null) throw new ClientError(409, KEY_IN_PROGRESS, undefined, 1);
      const fingerprint =
        boundary === null
          ? known
          : fingerprintOf(route, await new BodyTap(request, boundary).readToEnd());
      if (held.fingerprint !== fingerprint) throw new ClientError(422, KEY_REUSED);
      const body = held.body ? openAnswer(app.fieldKeys, owner, key, held.body) : Buffer.alloc(0);
      if (!body) throw new ClientError(409, ANSWER_UNREADABLE);
      return replay(reply, held.status_code, held.headers ?? {}, body);
    }

    async function keepAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
      const claim = claims.get(request);
      if (!claim) return payload;
      claims.delete(request);
      const body =
        typeof payload === 'string'
          ? Buffer.from(payload)
          : Buffer.isBuffer(payload)
            ? payload
            : null;
      const fingerprint =
        typeof claim.fingerprint === 'string'
          ? claim.fingerprint
          : claim.fingerprint.digest(request.routeOptions.url!);
      // Not kept: a failure (429, 5xx), a streamed answer, a multipart body the route did not read
      // to its end (an early refusal): the key may be tried again.
      const kept =
        reply.statusCode < 500 && reply.statusCode !== 429 && body !== null && fingerprint !== null;
      try {
        if (kept) {
          await storeIdempotentAnswer(app.db, claim.owner, claim.key, {
            fingerprint,
            statusCode: reply.statusCode,
            headers: replayedHeaders(reply),
            body: sealAnswer(app.fieldKeys, claim.owner, claim.key, body),
          });
        } else {
          await releaseIdempotencyKey(app.db, claim.owner, claim.key);
        }
      } catch (error) {
        request.log.error({ err: error }, 'idempotent answer not kept');
      }
      return payload;
    }

    // A client gone before the answer: nothing will be kept, so the key is free again.
    app.addHook('onRequestAbort', async (request) => {
      const claim = claims.get(request);
      if (!claim) return;
      claims.delete(request);
      await releaseIdempotencyKey(app.db, claim.owner, claim.key).catch((error: unknown) =>
        request.log.error({ err: error }, 'idempotency key not released'),
      );
    });
  },
  { name: 'idempotency' },
);

/** The fingerprint of a multipart request's claim until its body has been read. */
const PENDING = 'pending';

const fingerprintOf = (route: string, bodyDigest: string) =>
  crypto.createHash('sha256').update(route).update('\0').update(bodyDigest).digest('hex');

/** A parsed body's hash: its JSON (the same request sent again parses the same), or its bytes. */
function bodyHash(body: unknown): string {
  const hash = crypto.createHash('sha256');
  if (body === undefined || body === null) return hash.digest('hex');
  if (typeof body === 'string' || Buffer.isBuffer(body)) return hash.update(body).digest('hex');
  return hash.update(JSON.stringify(body)).digest('hex');
}

/**
 * The SHA-256 of a multipart body as it arrives, its boundary (which clients choose at random for
 * each sending) left out wherever it stands. It listens beside the route's reader and pauses the
 * stream at once, so no byte flows before the reader pipes it.
 */
class BodyTap {
  private readonly hash = crypto.createHash('sha256');
  private readonly mark: Buffer;
  private carry = Buffer.alloc(0);
  private ended = false;

  constructor(
    private readonly request: FastifyRequest,
    boundary: string,
  ) {
    this.mark = Buffer.from(boundary);
    const raw = request.raw;
    raw.on('data', (chunk: Buffer) => this.take(chunk));
    raw.once('end', () => (this.ended = true));
    raw.pause();
  }

  private take(chunk: Buffer) {
    // The boundary may straddle two chunks: the tail that could start one waits for the next.
    let text = Buffer.concat([this.carry, chunk]);
    for (let at = text.indexOf(this.mark); at !== -1; at = text.indexOf(this.mark)) {
      this.hash.update(text.subarray(0, at));
      text = text.subarray(at + this.mark.length);
    }
    const keep = Math.min(text.length, this.mark.length - 1);
    this.hash.update(text.subarray(0, text.length - keep));
    this.carry = Buffer.from(text.subarray(text.length - keep));
  }

  /** The body's digest once it was read to its end; null otherwise. */
  private body(): string | null {
    if (!this.ended) return null;
    return this.hash.update(this.carry).digest('hex');
  }

  /** The request's fingerprint, when the route read the whole body. */
  digest(route: string): string | null {
    const body = this.body();
    return body === null ? null : fingerprintOf(route, body);
  }

  /** Reads the body through (a duplicate, which does not run), then its digest. */
  async readToEnd(): Promise<string> {
    const raw = this.request.raw;
    if (!this.ended) {
      await new Promise<void>((resolve, reject) => {
        raw.once('end', resolve);
        raw.once('error', reject);
        raw.resume();
      });
    }
    return this.body()!;
  }
}

/** Whose key it is: the API credential's, or the signed-in account's; null signed out. */
async function ownerOf(request: FastifyRequest): Promise<string | null> {
  if (request.apiCredential) return `credential:${request.apiCredential.credentialId}`;
  const userId = await request.sessionUserId();
  return userId ? `user:${userId}` : null;
}

/** The multipart boundary of the request, which clients choose at random for each sending. */
function boundaryOf(request: FastifyRequest): string | null {
  const type = request.headers['content-type'] ?? '';
  const match = /^multipart\/[^;]+;.*\bboundary=(?:"([^"]+)"|([^\s;]+))/i.exec(type);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

function replayedHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

function replay(
  reply: FastifyReply,
  statusCode: number,
  headers: Record<string, string>,
  body: Buffer,
): FastifyReply {
  // Bytes are sent as they are: no serialiser reads them again.
  return reply
    .code(statusCode)
    .headers({ ...headers, 'idempotent-replayed': 'true' })
    .send(body);
}
