import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError } from '../../src/server/errors';
import { readMultipartForm } from '../../src/server/storage/multipartForm';
import { deleteStored, spoolDir, storedPath } from '../../src/server/storage/uploads';
import { multipart as formBody, pdfBytes, pngBytes, type Part } from './authHelpers';

/** A bare app with the storage module behind one route, and small limits to hit. */
describe('upload storage', () => {
  let app: FastifyInstance;
  let dataDir: string;
  let png: Buffer;
  let pdf: Buffer;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-storage-test-'));
    png = await pngBytes();
    pdf = await pdfBytes();
    app = Fastify();
    app.setErrorHandler((error, _request, reply) => {
      if (error instanceof ClientError) return reply.code(error.statusCode).send(error.body());
      return reply.code(500).send({ errorMessage: String(error) });
    });
    await app.register(multipart, {
      limits: { fileSize: 64 * 1024, files: 3, fields: 10, fieldSize: 100 },
      throwFileSizeLimit: true,
    });
    app.post('/upload', async (request) => {
      const form = await readMultipartForm(request, {
        dataDir,
        files: {
          image: { accept: 'image' },
          pdf: { accept: 'pdf', label: 'W-2' },
          either: { accept: 'image-or-pdf' },
        },
      });
      return { files: Object.fromEntries(form.files), note: form.field('note') ?? null };
    });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (parts: Part[]) => {
    const { payload, headers } = formBody(parts);
    return app.inject({ method: 'POST', url: '/upload', payload, headers });
  };
  const file = (name: string, data: Buffer, filename = 'file.bin'): Part => ({
    name,
    filename,
    contentType: 'application/octet-stream',
    data,
  });
  const stored = () => (fs.existsSync(spoolDir(dataDir)) ? fs.readdirSync(spoolDir(dataDir)) : []);

  it('stores a real image and a real PDF under random names, with types from content', async () => {
    const response = await upload([
      { name: 'note', value: 'hello' },
      file('image', png, '../../etc/passwd.png'),
      file('pdf', pdf, 'w2.pdf'),
    ]);
    expect(response.statusCode).toBe(200);
    const { files, note } = response.json();
    expect(note).toBe('hello');
    expect(files.image).toMatchObject({
      contentType: 'image/png',
      size: png.length,
      originalName: 'passwd.png',
    });
    expect(files.pdf).toMatchObject({ contentType: 'application/pdf', size: pdf.length });
    expect(files.image.storageName).toMatch(/^[a-f0-9]{32}$/);
    const onDisk = fs.readFileSync(files.pdf.spoolPath);
    expect(onDisk.equals(pdf)).toBe(true);
    await deleteStored(dataDir, files.image.storageName);
    await deleteStored(dataDir, files.pdf.storageName);
    expect(stored()).toEqual([]);
  });

  it('judges image-or-pdf by content, whatever the name says', async () => {
    const response = await upload([file('either', pdf, 'photo.jpg')]);
    expect(response.json().files.either.contentType).toBe('application/pdf');
    await deleteStored(dataDir, response.json().files.either.storageName);
  });

  it.each([
    [
      'a PNG cut in half',
      'image',
      () => png.subarray(0, Math.floor(png.length / 2)),
      /must be an image/,
    ],
    [
      'an SVG',
      'image',
      () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      /must be an image/,
    ],
    ['text named .pdf', 'pdf', () => Buffer.from('hello'), /not a readable PDF/],
    [
      'a PDF header with garbage',
      'pdf',
      () => Buffer.from('%PDF-1.7\n1 0 obj garbage'),
      /not a readable PDF/,
    ],
    ['an image where a PDF is needed', 'pdf', () => png, /W-2 is not a readable PDF/],
    ['an empty file', 'image', () => Buffer.alloc(0), /empty/],
  ])('refuses %s and keeps nothing', async (_label, field, data, message) => {
    const response = await upload([file(field, data())]);
    expect(response.statusCode).toBe(400);
    expect(response.json().errorMessage).toMatch(message);
    expect(stored()).toEqual([]);
  });

  it('refuses an oversize file with 413 and deletes the partial file and earlier files', async () => {
    const response = await upload([file('image', png), file('pdf', Buffer.alloc(200 * 1024, 1))]);
    expect(response.statusCode).toBe(413);
    expect(response.json().errorMessage).toMatch(/too large/);
    expect(stored()).toEqual([]);
  });

  it('bounds file counts, unknown file fields and field sizes', async () => {
    const tooMany = await upload([
      file('image', png),
      file('pdf', pdf),
      file('either', png),
      file('x', png),
    ]);
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().errorMessage).toBe('Too many files in one request.');
    const unknown = await upload([file('script', png)]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errorMessage).toMatch(/Unexpected file field/);
    const longField = await upload([{ name: 'note', value: 'x'.repeat(500) }]);
    expect(longField.statusCode).toBe(413);
    expect(stored()).toEqual([]);
  });

  it('answers a request cut off inside a file with 400, keeping nothing', async () => {
    const { payload, headers } = formBody([file('image', png)]);
    const cut = payload.subarray(0, payload.length - 60);
    const response = await app.inject({ method: 'POST', url: '/upload', payload: cut, headers });
    expect(response.statusCode).toBe(400);
    expect(response.json().errorMessage).toBeTruthy();
    expect(stored()).toEqual([]);
  });

  it('refuses a JSON body where form data is expected', async () => {
    const response = await app.inject({ method: 'POST', url: '/upload', payload: { a: 1 } });
    expect(response.statusCode).toBe(415);
  });

  it('never resolves a path outside the uploads folder', () => {
    expect(() => storedPath(dataDir, '../../etc/passwd')).toThrow();
    expect(() => storedPath(dataDir, 'ABC')).toThrow();
  });
});
