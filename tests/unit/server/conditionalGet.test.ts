import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import {
  encodeAnswer,
  matchesIfNoneMatch,
  preferredEncoding,
  sendEncodedAnswer,
  strongEtag,
} from '../../../src/server/conditionalGet';

describe('conditional GET helpers', () => {
  it('makes a strong ETag that differs by scope for the same body', () => {
    const a = strongEtag('{"x":1}', 'org-a');
    expect(a).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(strongEtag('{"x":1}', 'org-a')).toBe(a);
    expect(strongEtag('{"x":1}', 'org-b')).not.toBe(a);
    expect(strongEtag('{"x":2}', 'org-a')).not.toBe(a);
  });

  it('matches If-None-Match as RFC 9110 reads it: a list, weak tags, or *', () => {
    const etag = '"abc"';
    expect(matchesIfNoneMatch(undefined, etag)).toBe(false);
    expect(matchesIfNoneMatch('"abc"', etag)).toBe(true);
    expect(matchesIfNoneMatch('"x", "abc"', etag)).toBe(true);
    expect(matchesIfNoneMatch('W/"abc"', etag)).toBe(true);
    expect(matchesIfNoneMatch('*', etag)).toBe(true);
    expect(matchesIfNoneMatch('"abcd"', etag)).toBe(false);
    expect(matchesIfNoneMatch('abc', etag)).toBe(false);
  });

  const listing = JSON.stringify({ days: Array.from({ length: 200 }, (_, i) => ({ day: i })) });

  it('keeps an answer compressed once in brotli and gzip, each the same JSON, a tiny one as it is', async () => {
    const answer = await encodeAnswer(listing, 'scope');
    expect(answer.etag).toBe(strongEtag(listing, 'scope'));
    expect(answer.bodies.identity.toString()).toBe(listing);
    expect(zlib.brotliDecompressSync(answer.bodies.br!).toString()).toBe(listing);
    expect(zlib.gunzipSync(answer.bodies.gzip!).toString()).toBe(listing);
    expect(answer.bodies.br!.length).toBeLessThan(listing.length / 5);
    expect(answer.bytes).toBe(
      answer.bodies.identity.length + answer.bodies.br!.length + answer.bodies.gzip!.length,
    );
    const tiny = await encodeAnswer('{"x":1}');
    expect(Object.keys(tiny.bodies)).toEqual(['identity']);
  });

  it('picks the encoding by Accept-Encoding as RFC 9110 reads it: q-values, *, brotli first', async () => {
    const answer = await encodeAnswer(listing);
    expect(preferredEncoding(undefined, answer)).toBe('identity');
    expect(preferredEncoding('gzip, deflate, br, zstd', answer)).toBe('br');
    expect(preferredEncoding('gzip, deflate', answer)).toBe('gzip');
    expect(preferredEncoding('br;q=0.5, gzip', answer)).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0', answer)).toBe('identity');
    expect(preferredEncoding('*', answer)).toBe('br');
    expect(preferredEncoding('*;q=0, gzip', answer)).toBe('gzip');
    expect(preferredEncoding('deflate', answer)).toBe('identity');
    // An answer kept only as it is goes as it is, whatever is accepted.
    expect(preferredEncoding('br, gzip', await encodeAnswer('{}'))).toBe('identity');
  });

  it('sends the chosen encoding with its own ETag and Vary, and 304 only for that ETag', async () => {
    const answer = await encodeAnswer(listing);
    const app = Fastify();
    app.get('/', async (request, reply) => sendEncodedAnswer(request, reply, answer));
    const get = (headers: Record<string, string>) => app.inject({ url: '/', headers });
    const plain = await get({});
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.etag).toBe(answer.etag);
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.body).toBe(listing);
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(listing);
    const brTag = br.headers.etag as string;
    expect(brTag).not.toBe(answer.etag);
    expect(brTag).toMatch(/^"[^"]+-br"$/);
    const reload = await get({ 'accept-encoding': 'gzip, deflate, br', 'if-none-match': brTag });
    expect(reload.statusCode).toBe(304);
    expect(reload.headers.vary).toBe('accept-encoding');
    // A tag of another encoding is another representation: the whole answer.
    const crossed = await get({ 'accept-encoding': 'gzip', 'if-none-match': brTag });
    expect(crossed.statusCode).toBe(200);
    expect(zlib.gunzipSync(crossed.rawPayload).toString()).toBe(listing);
    await app.close();
  });
});
