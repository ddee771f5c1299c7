/**
 * Checks on uploaded content beyond "it parses": a PDF must carry no active content, an image
 * must have bounded dimensions before any pixel is decoded.
 */
import { PDFArray, PDFDict, PDFName, PDFStream, type PDFDocument, type PDFObject } from 'pdf-lib';
import sharp from 'sharp';

/**
 * Keys that make a PDF do something when opened or clicked: scripts (`/JS`, `/JavaScript`),
 * automatic actions (`/AA`), embedded files (`/EmbeddedFiles`, `/EF`), XFA forms, rich media.
 */
const ACTIVE_KEYS = new Set(['JS', 'JavaScript', 'AA', 'EmbeddedFiles', 'EF', 'XFA', 'RichMedia']);
/** Action (`/S`) and object (`/Type`) names that run, launch, send or embed something. */
const ACTIVE_NAMES = new Set([
  'JavaScript',
  'Launch',
  'ImportData',
  'SubmitForm',
  'RichMediaExecute',
  'GoToE',
  'EmbeddedFile',
]);

/**
 * The first active-content marker found in any object of the document (`/OpenAction` running a
 * script shows as `/JS`), or null for a passive document. Names are compared decoded, so
 * `/J#61vaScript` does not hide `/JavaScript`. Walks iteratively: nesting cannot overflow.
 */
export function pdfActiveContent(document: PDFDocument): string | null {
  const stack: PDFObject[] = document.context
    .enumerateIndirectObjects()
    .map(([, object]) => object);
  const seen = new Set<PDFObject>();
  while (stack.length > 0) {
    const object = stack.pop()!;
    if (seen.has(object)) continue;
    seen.add(object);
    const dict =
      object instanceof PDFDict ? object : object instanceof PDFStream ? object.dict : null;
    if (dict) {
      for (const [key, value] of dict.entries()) {
        const name = key.decodeText();
        if (ACTIVE_KEYS.has(name)) return `/${name}`;
        if ((name === 'S' || name === 'Type') && value instanceof PDFName) {
          const kind = value.decodeText();
          if (ACTIVE_NAMES.has(kind)) return `/${kind}`;
        }
        stack.push(value);
      }
    } else if (object instanceof PDFArray) {
      stack.push(...object.asArray());
    }
  }
  return null;
}

/**
 * Most pixels an uploaded image may have: 40 megapixels holds any ID photo or phone picture at
 * full resolution, and bounds what one upload costs to decode (a 97 KB PNG can claim 100 Mpx).
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Longest side, so a 1 x 40,000,000 strip does not slip under the pixel count. */
export const MAX_IMAGE_SIDE = 20_000;

/**
 * Reads only the image header and answers why its dimensions are refused, or null when they are
 * acceptable (or the header is unreadable: the full decode that follows refuses that).
 */
export async function oversizeImage(file: string): Promise<string | null> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(file, { limitInputPixels: false }).metadata());
  } catch {
    return null;
  }
  if (!width || !height) return null;
  if (width * height > MAX_IMAGE_PIXELS || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    return `${width} x ${height} pixels`;
  }
  return null;
}
