import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotliCompress = promisify(zlib.brotliCompress);
const gzipCompress = promisify(zlib.gzip);

/**
 * `then(value)` at once when `value` is at hand, else when it settles: a route answering from
 * memory (the statement, the listing) then pays no promise, and its answer leaves in the same
 * tick. A throw in `then` reaches Fastify's error handler either way.
 */
export function whenAvailable<T, R>(value: T | Promise<T>, then: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(then) : then(value);
}

/** A strong ETag of a serialised answer: its SHA-256, with `scope` mixed in (an organisation). */
export function strongEtag(body: string, scope = ''): string {
  const hash = crypto.createHash('sha256').update(scope).update('\n').update(body);
  return `"${hash.digest('base64url').slice(0, 27)}"`;
}

/**
 * Whether `If-None-Match` names `etag` (RFC 9110 §13.1.2: a list of tags, compared weakly, or
 * `*`), so a GET may answer 304.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  // A browser's reload sends back the one tag it holds, as it was given.
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  return header.split(',').some((tag) => bare(tag) === wanted);
}

/** The encodings a cached answer is kept in: brotli and gzip, as every browser accepts. */
type Encoding = 'br' | 'gzip' | 'identity';

/**
 * An answer served often and changed rarely (the statement, the disclosures listing), kept in
 * each encoding a browser asks for, compressed once when the cache is filled: compressing a
 * 33 kB listing with brotli on each request cost more than everything else the request did.
 */
export interface EncodedAnswer {
  /** Each encoding's bytes; an encoding that would not be smaller is left out. */
  readonly bodies: Readonly<Partial<Record<Encoding, Buffer>>> & { readonly identity: Buffer };
  /** The identity body's strong ETag; each encoding has its own (RFC 9110 §8.8.3). */
  readonly etag: string;
  /** The bytes held in memory (a cache's budget). */
  readonly bytes: number;
}

/** Below this an answer goes as it is (the compress plugin's threshold too). */
const COMPRESS_THRESHOLD = 1024;

/** Compresses `body` once into the encodings browsers accept; `scope` as in strongEtag. */
export async function encodeAnswer(body: string, scope = ''): Promise<EncodedAnswer> {
  const identity = Buffer.from(body, 'utf8');
  const bodies: { identity: Buffer; br?: Buffer; gzip?: Buffer } = { identity };
  if (identity.length >= COMPRESS_THRESHOLD) {
    const [br, gzip] = await Promise.all([
      brotliCompress(identity, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        },
      }),
      gzipCompress(identity, { level: 9 }),
    ]);
    if (br.length < identity.length) bodies.br = br;
    if (gzip.length < identity.length) bodies.gzip = gzip;
  }
  const bytes = identity.length + (bodies.br?.length ?? 0) + (bodies.gzip?.length ?? 0);
  return { bodies, etag: strongEtag(body, scope), bytes };
}

/**
 * Sends a cached answer in the encoding the request prefers among those kept, with that
 * encoding's ETag, or 304 when `If-None-Match` names it. The caller decides first who may have it.
 */
export function sendEncodedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: EncodedAnswer,
  contentType = 'application/json; charset=utf-8',
): FastifyReply {
  const encoding = preferredEncoding(request.headers['accept-encoding'], answer);
  const etag = encoding === 'identity' ? answer.etag : `${answer.etag.slice(0, -1)}-${encoding}"`;
  reply.header('vary', 'accept-encoding').header('etag', etag);
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.type(contentType).send(answer.bodies[encoding]);
}

/**
 * The encoding to send, by the request's `Accept-Encoding` (RFC 9110 §12.5.3: q-values, `*`),
 * among those the answer has: brotli before gzip at equal weight, else identity.
 */
export function preferredEncoding(header: string | undefined, answer: EncodedAnswer): Encoding {
  if (!header) return 'identity';
  const weights = acceptedEncodings(header);
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = answer.bodies.br ? weight('br') : 0;
  const gzip = answer.bodies.gzip ? weight('gzip') : 0;
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return 'identity';
}

/** The last header parsed: browsers send the same one on every request. */
let lastAccepted: { header: string; weights: Map<string, number> } | undefined;

function acceptedEncodings(header: string): Map<string, number> {
  if (lastAccepted?.header === header) return lastAccepted.weights;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...parameters] = part.split(';');
    const coding = name!.trim().toLowerCase();
    if (!coding) continue;
    let q = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(parameter);
      if (match) q = Number(match[1]);
    }
    weights.set(coding, q);
  }
  lastAccepted = { header, weights };
  return weights;
}
