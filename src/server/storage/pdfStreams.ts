/**
 * How much a PDF's streams unpack to (issue 39 §5): a page whose content inflates to 80 MB from a
 * few kilobytes was stored, since the inspection read stream dictionaries only. Every stream the
 * walk from the catalog reaches (pdfActions.ts) is decoded here as a viewer would, images aside,
 * each within MAX_DECODED_STREAM_BYTES (pdfLimits.ts) and all together within
 * {@link MAX_PDF_INFLATED_BYTES}: a document past either is refused, not stored for staff's viewer
 * to unpack.
 */
import {
  DecodedStreamTooLarge,
  withDecodeLimit,
  type PdfEngine,
  type PdfStream,
  type PdfXRef,
} from './pdfEngine';
import { MAX_PDF_INFLATED_BYTES } from './pdfLimits';

/**
 * Filters of pictures: a viewer decodes them to the size the image's dictionary declares, not to
 * whatever the data holds, and decoding them here would cost what rendering costs.
 */
const IMAGE_CODECS = new Set([
  'DCTDecode',
  'DCT',
  'JPXDecode',
  'JBIG2Decode',
  'CCITTFaxDecode',
  'CCF',
]);

/**
 * Whether the streams unpack past a bound: one past MAX_DECODED_STREAM_BYTES, or all
 * together past `budget`. Image XObjects and image codecs are not decoded; a stream whose data
 * is broken counts what it gave (a viewer shows what it can of it).
 */
export function inflatesTooFar(
  engine: PdfEngine,
  xref: PdfXRef,
  streams: readonly PdfStream[],
  budget = MAX_PDF_INFLATED_BYTES,
): boolean {
  const resolve = (value: unknown): unknown =>
    value instanceof engine.Ref ? xref.fetch(value) : value;
  const names = (value: unknown): string[] => {
    const resolved = resolve(value);
    if (resolved instanceof engine.Name) return [resolved.name];
    return Array.isArray(resolved) ? resolved.flatMap((item) => names(item)) : [];
  };
  let left = budget;
  for (const stream of streams) {
    const dict = stream.dict;
    if (dict && names(dict.getRaw('Subtype')).includes('Image')) continue;
    if (dict && names(dict.getRaw('Filter')).some((filter) => IMAGE_CODECS.has(filter))) continue;
    try {
      stream.reset();
      left -= withDecodeLimit(left + 1, () => stream.getBytes()).length;
    } catch (error) {
      if (error instanceof DecodedStreamTooLarge) return true;
      continue; // broken data: a viewer renders what decoded
    }
    if (left < 0) return true;
  }
  return false;
}
