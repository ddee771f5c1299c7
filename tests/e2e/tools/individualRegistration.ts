/**
 * Prints a valid individual registration multipart body (the example answers, a real PNG photo
 * ID and PDF W-2 and signed documents) as JSON `{ contentType, body }` with `body` in base64.
 *
 * Run with tsx (`tsx tests/e2e/tools/individualRegistration.ts <email>`): it imports the form
 * engine, whose JSON schema imports Playwright's loader does not take, so the end-to-end tests
 * call it as a child process instead of importing it.
 */
import fs from 'node:fs';
import sharp from 'sharp';
import { signedDocuments, toPayload } from '../../../src/shared/forms/payload/payload';
import type { Answers } from '../../../src/shared/forms/model/schemaTypes';
import { testForm } from '../../forms';

const email = process.argv[2];
if (!email) throw new Error('usage: individualRegistration.ts <email>');
const pdf = new Uint8Array(fs.readFileSync('assets/pdfs/terms-of-service.pdf'));
const png = new Uint8Array(
  await sharp({ create: { width: 32, height: 20, channels: 3, background: '#8899aa' } })
    .png()
    .toBuffer(),
);
const pdfBlob = () => new Blob([pdf], { type: 'application/pdf' });
const pngBlob = () => new Blob([png], { type: 'image/png' });

const answers: Answers = {
  ...(structuredClone(testForm('individual').example) as Answers),
  primaryEmailAddress: email,
  photoId: { name: 'front.png', type: 'image/png', size: png.length },
  photoIdBack: { name: 'back.png', type: 'image/png', size: png.length },
  irsFormW2: { name: 'w2.pdf', type: 'application/pdf', size: pdf.length },
};
const form = toPayload(
  testForm('individual'),
  answers,
  { '/photoId': pngBlob(), '/photoIdBack': pngBlob(), '/irsFormW2': pdfBlob() },
  Object.fromEntries(signedDocuments(testForm('individual')).map((d) => [d.url, pdfBlob()])),
);
const request = new Request('http://localhost/', { method: 'POST', body: form });
const body = Buffer.from(await request.arrayBuffer()).toString('base64');
process.stdout.write(JSON.stringify({ contentType: request.headers.get('content-type'), body }));
