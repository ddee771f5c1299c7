/**
 * How much a PDF's streams unpack to (issue 39 §5): a page whose content inflates to 80 MB from a
 * few kilobytes was stored, since the inspection read stream dictionaries only. Every stream the
 * walk from the catalog reaches (pdfActions.ts) is decoded here as a viewer would, pictures and
 * their FlateDecode included (only picture codecs are not run), each within MAX_DECODED_STREAM_BYTES (pdfLimits.ts) and all together within
 * {@link MAX_PDF_INFLATED_BYTES}: a document past either is refused, not stored for staff's viewer
 * to unpack.
 */
import {
  DecodedStreamTooLarge,
  withDecodeLimit,
  type PdfEngine,
  type PdfStream,
} from './pdfEngine';
import { MAX_PDF_INFLATED_BYTES } from './pdfLimits';

/**
 * What of `stream` is unpacked to measure it. A picture codec (DCT, JPX, JBIG2, CCITT fax) is not
 * run: a viewer decodes it to the size the image declares, and running it here would cost what
 * rendering costs. The layers below the innermost codec are (a JPEG inside FlateDecode: the
 * Flate layer), since a few kilobytes of deflate can unpack to gigabytes whatever lies above; a
 * stream without a codec, picture or page, is unpacked whole. Null when only a codec's raw data
 * is left (a plain DCTDecode photo: nothing unpacks).
 */
function unpacked(engine: PdfEngine, stream: PdfStream): PdfStream | null {
  const codecs = [engine.JpegStream, engine.JpxStream, engine.Jbig2Stream, engine.CCITTFaxStream];
  let below: PdfStream | undefined = stream;
  for (let layer: PdfStream | undefined = stream; layer; layer = layer.stream) {
    const current = layer;
    if (codecs.some((codec) => current instanceof codec)) below = current.stream;
  }
  if (below === stream) return stream;
  return below?.stream ? below : null;
}

/**
 * Whether the streams unpack past a bound: one past MAX_DECODED_STREAM_BYTES, or all together
 * past `budget`. Every stream counts, images and their FlateDecode included (issue 39 §5); picture
 * codecs are not run (`unpacked`); a stream whose data is broken counts what it gave (a viewer
 * shows what it can of it).
 */
export function inflatesTooFar(
  engine: PdfEngine,
  streams: readonly PdfStream[],
  budget = MAX_PDF_INFLATED_BYTES,
): boolean {
  let left = budget;
  for (const stream of streams) {
    const measured = unpacked(engine, stream);
    if (!measured) continue;
    try {
      measured.reset();
      left -= withDecodeLimit(left + 1, () => measured.getBytes()).length;
    } catch (error) {
      if (error instanceof DecodedStreamTooLarge) return true;
      continue; // broken data: a viewer renders what decoded
    }
    if (left < 0) return true;
  }
  return false;
}
