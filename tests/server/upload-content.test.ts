import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError } from '../../src/server/errors';
import { readMultipartForm } from '../../src/server/storage/multipartForm';
import { multipart as formBody, type Part } from './authHelpers';

/** A PNG header claiming `width` x `height` 1-bit grey pixels, all zero (tiny once deflated). */
function zeroPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((Math.ceil(width / 8) + 1) * height); // filter byte + pixels, zeros
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-file ZIP (stored, not deflated), as an attacker appends one to a PDF. */
function zipOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const fileName = Buffer.from(name);
  const crc = zlib.crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const directoryAt = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(directoryAt, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

async function pdfWith(change: (document: PDFDocument) => void | Promise<void>): Promise<Buffer> {
  const document = await PDFDocument.create();
  document.addPage();
  await change(document);
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/** Active content a PDF can carry; each must be refused. */
async function activePdfs(): Promise<Record<string, Buffer>> {
  const script = (document: PDFDocument) =>
    document.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') });
  const openAction = await pdfWith((document) => {
    document.catalog.set(PDFName.of('OpenAction'), script(document));
  });
  return {
    'OpenAction with /JS': openAction,
    'page /AA': await pdfWith((document) => {
      document.getPage(0).node.set(PDFName.of('AA'), document.context.obj({ O: script(document) }));
    }),
    'embedded file': await pdfWith(async (document) => {
      await document.attach(Buffer.from('MZ...'), 'invoice.exe', { mimeType: 'text/plain' });
    }),
    'Launch action': await pdfWith((document) => {
      document.catalog.set(
        PDFName.of('OpenAction'),
        document.context.obj({ S: 'Launch', F: PDFString.of('calc.exe') }),
      );
    }),
    // `#61` is `a`: the same name written with a hex escape.
    'hex-escaped /JavaScript': Buffer.from(
      openAction.toString('latin1').replace('/JavaScript', '/J#61vaScript'),
      'latin1',
    ),
  };
}

describe('uploaded content', () => {
  let app: FastifyInstance;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-content-test-'));
    app = Fastify();
    app.setErrorHandler((error, _request, reply) => {
      if (error instanceof ClientError) return reply.code(error.statusCode).send(error.body());
      return reply.code(500).send({ errorMessage: String(error) });
    });
    await app.register(multipart, {
      limits: { fileSize: 4 * 1024 * 1024, files: 3 },
      throwFileSizeLimit: true,
    });
    app.post('/upload', async (request) => {
      const form = await readMultipartForm(request, {
        dataDir,
        files: {
          image: { accept: 'image', label: 'photo ID' },
          pdf: { accept: 'pdf', label: 'W-2' },
        },
      });
      return { files: Object.fromEntries(form.files) };
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
  const file = (name: string, data: Buffer): Part => ({
    name,
    filename: 'file.bin',
    contentType: 'application/octet-stream',
    data,
  });
  /** Every file left under the uploads folder (the spool included), folders not counted. */
  const stored = () =>
    fs.existsSync(path.join(dataDir, 'uploads'))
      ? fs
          .readdirSync(path.join(dataDir, 'uploads'), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => path.join(entry.parentPath, entry.name))
      : [];

  it('refuses PDFs with scripts, automatic actions, launch actions or embedded files', async () => {
    const before = stored();
    for (const [kind, pdf] of Object.entries(await activePdfs())) {
      expect(await PDFDocument.load(pdf), kind).toBeTruthy(); // each is a readable PDF
      const response = await upload([file('pdf', pdf)]);
      expect(response.statusCode, kind).toBe(400);
      expect(response.json().errorMessage, kind).toBe(
        'The file for W-2 contains active content (scripts, automatic actions or embedded files), which we do not accept. Please save or print it as a plain PDF and upload that.',
      );
    }
    expect(stored()).toEqual(before);
  });

  it('still accepts a plain PDF, links and page destinations included', async () => {
    const plain = await pdfWith((document) => {
      const page = document.getPage(0);
      document.catalog.set(PDFName.of('OpenAction'), document.context.obj([page.ref, 'Fit']));
    });
    const response = await upload([file('pdf', plain)]);
    expect(response.statusCode).toBe(200);
  });

  it('refuses a PDF with data after its last %%EOF (a ZIP holding a script); a little whitespace there is fine', async () => {
    // Issue 39 §5: the PDF opened fine and was stored with the ZIP, a polyglot staff download.
    const before = stored();
    const plain = await pdfWith(() => {});
    const zip = zipOf('index.html', '<script>alert(document.cookie)</script>');
    const refusal =
      'The file for W-2 does not end where a PDF ends (data follows its end, or its end is missing). Please save or print it as a plain PDF and upload that.';
    for (const [kind, pdf] of Object.entries({
      'a ZIP appended': Buffer.concat([plain, zip]),
      'a ZIP after a line end': Buffer.concat([plain, Buffer.from('\r\n'), zip]),
      'more whitespace than the tolerance': Buffer.concat([plain, Buffer.alloc(2048, ' ')]),
      'no %%EOF at all': plain.subarray(0, plain.lastIndexOf('%%EOF')),
    })) {
      expect(await PDFDocument.load(pdf), kind).toBeTruthy(); // each opens as a PDF
      const response = await upload([file('pdf', pdf)]);
      expect(response.statusCode, kind).toBe(400);
      expect(response.json().errorMessage, kind).toBe(refusal);
    }
    expect(stored()).toEqual(before);
    const padded = Buffer.concat([plain, Buffer.from('\r\n \n'), Buffer.alloc(200)]);
    expect((await upload([file('pdf', padded)])).statusCode).toBe(200);
  });

  it('refuses a PDF whose streams unpack too far: one page of 80 MB, or three of 50 MB; 2 x 20 MB is fine', async () => {
    // Issue 39 §5: a page whose content inflated to 80 MB was stored (streams were never decoded).
    const MB = 1024 * 1024;
    const withContents = (sizes: number[]) =>
      pdfWith((document) => {
        const refs = sizes.map((size) =>
          document.context.register(
            document.context.stream(zlib.deflateSync(Buffer.alloc(size * MB, ' '), { level: 9 }), {
              Filter: 'FlateDecode',
            }),
          ),
        );
        document.getPage(0).node.set(PDFName.of('Contents'), document.context.obj(refs));
      });
    const before = stored();
    for (const sizes of [[80], [50, 50, 50]]) {
      const bomb = await withContents(sizes);
      expect(bomb.length, `${sizes}`).toBeLessThan(1 * MB);
      const response = await upload([file('pdf', bomb)]);
      expect(response.statusCode, `${sizes}`).toBe(400);
      expect(response.json().errorMessage, `${sizes}`).toBe(
        'The file for W-2 unpacks to too much data when opened (more than 64 MB in one part, or 128 MB in all). Please save or print it as a plain PDF and upload that.',
      );
    }
    expect(stored()).toEqual(before);
    expect((await upload([file('pdf', await withContents([20, 20]))])).statusCode).toBe(200);
  });

  it('counts images too: an image XObject whose FlateDecode unpacks too far is refused, a JPEG inside Flate by its Flate layer; plain JPEG and small pictures are fine', async () => {
    // Issue 39 §5 leftover: image streams (/Subtype /Image, DCTDecode under FlateDecode) were left
    // out of the bound, so a picture of a few kilobytes could unpack to 80 MB.
    const MB = 1024 * 1024;
    const jpeg = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#357' },
    })
      .jpeg()
      .toBuffer();
    type Picture = { data: Buffer; filter: string[]; width: number; height: number };
    /** A page drawing each picture, each an image XObject of its own. */
    const withPictures = (pictures: Picture[]) =>
      pdfWith((document) => {
        const names: Record<string, unknown> = {};
        pictures.forEach(({ data, filter, width, height }, n) => {
          names[`Im${n}`] = document.context.register(
            document.context.stream(data, {
              Type: 'XObject',
              Subtype: 'Image',
              Width: width,
              Height: height,
              ColorSpace: filter.includes('DCTDecode') ? 'DeviceRGB' : 'DeviceGray',
              BitsPerComponent: 8,
              Filter: filter,
            }),
          );
        });
        const page = document.getPage(0);
        page.node.set(
          PDFName.of('Resources'),
          document.context.obj({ XObject: document.context.obj(names as never) }),
        );
        const draw = pictures.map((_, n) => `q 100 0 0 100 0 0 cm /Im${n} Do Q`).join('\n');
        page.node.set(
          PDFName.of('Contents'),
          document.context.register(document.context.stream(draw)),
        );
      });
    /** A grey picture of `size` MB (8192 pixels wide), deflated: a few kilobytes. */
    const grey = (size: number): Picture => ({
      data: zlib.deflateSync(Buffer.alloc(size * MB, 0xff), { level: 9 }),
      filter: ['FlateDecode'],
      width: 8192,
      height: (size * MB) / 8192,
    });
    const refusal =
      'The file for W-2 unpacks to too much data when opened (more than 64 MB in one part, or 128 MB in all). Please save or print it as a plain PDF and upload that.';
    const before = stored();
    for (const [kind, pictures] of Object.entries({
      'one picture of 80 MB': [grey(80)],
      'three pictures of 50 MB': [grey(50), grey(50), grey(50)],
      'a JPEG inside 80 MB of Flate': [
        {
          data: zlib.deflateSync(Buffer.concat([jpeg, Buffer.alloc(80 * MB)]), { level: 9 }),
          filter: ['FlateDecode', 'DCTDecode'],
          width: 64,
          height: 48,
        },
      ],
    })) {
      const bomb = await withPictures(pictures);
      expect(bomb.length, kind).toBeLessThan(1 * MB);
      const response = await upload([file('pdf', bomb)]);
      expect(response.statusCode, kind).toBe(400);
      expect(response.json().errorMessage, kind).toBe(refusal);
    }
    expect(stored()).toEqual(before);
    const fine = await withPictures([
      grey(20),
      grey(20),
      { data: jpeg, filter: ['DCTDecode'], width: 64, height: 48 },
      { data: zlib.deflateSync(jpeg), filter: ['FlateDecode', 'DCTDecode'], width: 64, height: 48 },
    ]);
    expect((await upload([file('pdf', fine)])).statusCode).toBe(200);
  });

  it('refuses an image of 100 megapixels from its header, before decoding it', async () => {
    const before = stored();
    const bomb = zeroPng(10_000, 10_000);
    expect(bomb.length).toBeLessThan(200_000);
    const response = await upload([file('image', bomb)]);
    expect(response.statusCode).toBe(400);
    expect(response.json().errorMessage).toBe(
      'The image for photo ID is too large (10000 x 10000 pixels). Please send a picture of at most 40 megapixels.',
    );
    const strip = await upload([file('image', zeroPng(30_000, 8))]);
    expect(strip.statusCode).toBe(400);
    expect(stored()).toEqual(before);
    const fine = await upload([file('image', zeroPng(640, 480))]);
    expect(fine.statusCode).toBe(200);
  });
});
