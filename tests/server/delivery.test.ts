import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readableLogLine } from '../../src/server/logging';
import { createTestApp, type TestApp } from './testApp';

/** A built app in miniature: index.html and one hashed bundle with its precompressed copies. */
function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><title>x</title>${' '.repeat(2000)}`,
  );
  const bundle = `export const x = ${JSON.stringify('a'.repeat(5000))};`;
  const file = path.join(dir, 'assets', 'index-AbC123.js');
  fs.writeFileSync(file, bundle);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(bundle));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bundle));
  return dir;
}

describe('delivery: compression, caching, favicon', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = fakeBuild();
    t = await createTestApp({ webDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('sends hashed bundles precompressed and immutable for a year', async () => {
    const br = await t.app.inject({
      url: '/clearing/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain('export const x');
    const gzip = await t.app.inject({
      url: '/clearing/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await t.app.inject({ url: '/clearing/assets/index-AbC123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('export const x');
  });

  it('revalidates index.html on every use (it names the current bundles), without no-store', async () => {
    for (const url of ['/clearing', '/clearing/home']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      // no-store would keep every page out of the back/forward cache (issue 19 §9).
      expect(response.headers['cache-control']).toBe('no-cache');
      const etag = response.headers.etag;
      expect(etag).toBeTruthy();
      const again = await t.app.inject({ url, headers: { 'if-none-match': String(etag) } });
      expect(again.statusCode).toBe(304);
    }
  });

  it('answers an address the app has no page for with 404 and a page saying so (issue 38 §4)', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    for (const url of ['/clearing/home', '/clearing/registration/business', '/clearing/signin']) {
      expect((await t.app.inject({ url, headers: html })).statusCode, url).toBe(200);
    }
    for (const url of [
      '/clearing/this-does-not-exist',
      '/clearing/registration/nonexistent-form',
      '/clearing/home/extra',
    ]) {
      const response = await t.app.inject({ url, headers: html });
      expect(response.statusCode, url).toBe(404);
      // The app itself, which draws its not-found page in the portal's layout.
      expect(response.body, url).toContain('<title>x</title>');
    }
    // Outside the app: a browser gets a page with the way in, a client of the API its JSON.
    const page = await t.app.inject({ url: '/nonexistent-top', headers: html });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<h1>Page not found</h1>');
    expect(page.body).toContain('href="/clearing/home"');
    const api = await t.app.inject({ url: '/nonexistent-top' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ errorMessage: 'Not found.', code: 'not_found' });
  });

  it('compresses API answers for clients that accept it', async () => {
    const response = await t.app.inject({
      url: '/clearing/regulation/disclosures',
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.headers['content-encoding']).toBe('br');
    // An API answer over the threshold: the outbox with a few emails in it.
    for (let n = 0; n < 10; n += 1) {
      await t.mailer.send({ to: `p${n}@example.com`, subject: 'Hello', text: 'x'.repeat(200) });
    }
    const api = await t.app.inject({ url: '/dev/outbox', headers: { 'accept-encoding': 'gzip' } });
    expect(api.statusCode).toBe(200);
    expect(api.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(api.rawPayload).toString())).toHaveLength(10);
  });

  it('answers a favicon at /favicon.svg and /favicon.ico', async () => {
    for (const url of ['/favicon.svg', '/favicon.ico']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('image/svg+xml');
      expect(response.body).toContain('<svg');
    }
  });
});

describe('development log lines', () => {
  it('turns a request line into one readable line, secrets already redacted', () => {
    const line = readableLogLine(
      JSON.stringify({
        level: 30,
        time: Date.UTC(2026, 0, 2, 3, 4, 5),
        req: { method: 'GET', url: '/clearing/user/verify-email?access_token=[redacted]' },
        res: { statusCode: 200 },
        responseTime: 12,
        msg: 'request completed',
      }),
    );
    expect(line).toBe(
      '03:04:05 INFO  GET /clearing/user/verify-email?access_token=[redacted] 200 12 ms',
    );
    const error = readableLogLine(
      JSON.stringify({
        level: 50,
        time: 0,
        msg: 'request failed',
        incidentId: 'abc',
        err: { stack: 'Error: x\n  at y' },
      }),
    );
    expect(error).toBe('00:00:00 ERROR request failed (incident abc)\nError: x\n  at y');
  });
});
