/**
 * The inspection thread: opens each PDF it is sent with pdf.js's parser and judges what the
 * document does (pdfActions.ts), and decodes HEIC photos (libheif, through heic-decode). Runs
 * beside the server's thread, so a large or hostile file never holds up other requests; the
 * server ends the thread when a check runs too long.
 */
import fs from 'node:fs';
import { parentPort, type TransferListItem } from 'node:worker_threads';
import decodeHeicFile from 'heic-decode';
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from './imageLimits';
import type { HeicDecodeResult, InspectionRequest, PdfInspectionResult } from './inspectionThreads';
import { MAX_PDF_OBJECTS, pdfActiveContent } from './pdfActions';
import { loadPdfEngine, openPdf, PdfEngineLoadError, type PdfStream } from './pdfEngine';
import { inflatesTooFar } from './pdfStreams';

async function inspectPdf(file: string): Promise<PdfInspectionResult> {
  const engine = await loadPdfEngine();
  // A view of the file's buffer, not a copy: a 10 MB PDF is held once per check, not twice.
  const read = await fs.promises.readFile(file);
  const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
  const opened = await openPdf(engine, bytes);
  if ('unreadable' in opened) return { verdict: 'unreadable', reason: opened.unreadable };
  if (opened.pages < 1) return { verdict: 'unreadable', reason: 'no pages' };
  const streams: PdfStream[] = [];
  const verdict = pdfActiveContent(engine, opened.xref, MAX_PDF_OBJECTS, streams);
  if ('unreadable' in verdict) return { verdict: 'unreadable', reason: verdict.unreadable };
  if (verdict.active) return { verdict: 'active', reason: verdict.active };
  if (inflatesTooFar(engine, streams)) return { verdict: 'inflating' };
  return { verdict: 'passive', pages: opened.pages };
}

/** The primary image's pixels, after its size is checked from the container (before decoding). */
async function decodeHeic(file: string): Promise<HeicDecodeResult> {
  const images = await decodeHeicFile.all({ buffer: await fs.promises.readFile(file) });
  try {
    const image = images[0];
    if (!image) return { verdict: 'unreadable', reason: 'no image' };
    const { width, height } = image;
    if (width * height > MAX_IMAGE_PIXELS || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
      return { verdict: 'unreadable', reason: 'too large' };
    }
    const decoded = await image.decode();
    // A copy of its own (the decoder's buffers may live in its memory), moved, not copied again.
    const rgba = new Uint8Array(decoded.data);
    return { verdict: 'decoded', width, height, rgba };
  } finally {
    images.dispose();
  }
}

parentPort!.on('message', (request: InspectionRequest) => {
  const work = request.kind === 'pdf' ? inspectPdf(request.file) : decodeHeic(request.file);
  work.then(
    (result) => {
      // The pixels move to the server's thread rather than being copied.
      const transfer: TransferListItem[] =
        'rgba' in result ? [result.rgba.buffer as ArrayBuffer] : [];
      parentPort!.postMessage({ id: request.id, result }, transfer);
    },
    (error: unknown) => {
      // An engine that cannot load is the server's fault; anything else, the file's.
      if (error instanceof PdfEngineLoadError) {
        parentPort!.postMessage({ id: request.id, failure: error.message });
      } else {
        const reason = (error as Error)?.name ?? 'error';
        parentPort!.postMessage({ id: request.id, result: { verdict: 'unreadable', reason } });
      }
    },
  );
});
// Loaded at once, so the first upload does not wait for it.
loadPdfEngine().then(
  () => parentPort!.postMessage({ ready: true }),
  () => {}, // reported to the check that needs it
);
