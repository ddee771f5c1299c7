/**
 * Checks on uploaded images beyond "it decodes": bounded dimensions before any pixel is decoded.
 * PDFs are judged in pdfActions.ts.
 */
import sharp from 'sharp';

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
