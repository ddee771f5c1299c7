/**
 * The PDF inspection thread: opens each file it is sent with pdf.js's parser and judges what the
 * document does (pdfActions.ts). Runs beside the server's thread, so a large or hostile PDF
 * never holds up other requests; the server ends the thread when a check runs too long.
 */
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { pdfActiveContent } from './pdfActions';
import { loadPdfEngine, openPdf } from './pdfEngine';
import type { PdfInspectionRequest, PdfInspectionResult } from './pdfInspection';

async function inspect(file: string): Promise<PdfInspectionResult> {
  const engine = await loadPdfEngine();
  const bytes = new Uint8Array(await fs.promises.readFile(file));
  const opened = await openPdf(engine, bytes);
  if ('unreadable' in opened) return { verdict: 'unreadable', reason: opened.unreadable };
  if (opened.pages < 1) return { verdict: 'unreadable', reason: 'no pages' };
  const verdict = pdfActiveContent(engine, opened.xref);
  if ('unreadable' in verdict) return { verdict: 'unreadable', reason: verdict.unreadable };
  return verdict.active
    ? { verdict: 'active', reason: verdict.active }
    : { verdict: 'passive', pages: opened.pages };
}

parentPort!.on('message', (request: PdfInspectionRequest) => {
  inspect(request.file)
    .catch((error: unknown): PdfInspectionResult => ({
      verdict: 'unreadable',
      reason: (error as Error)?.message ?? 'error',
    }))
    .then((result) => parentPort!.postMessage({ id: request.id, result }));
});
// Loaded at once, so the first upload does not wait for it.
void loadPdfEngine().then(() => parentPort!.postMessage({ ready: true }));
