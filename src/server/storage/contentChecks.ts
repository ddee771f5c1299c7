/**
 * Checks on uploaded images beyond "it decodes": bounded dimensions before any pixel is decoded.
 * PDFs are judged in pdfActions.ts.
 */
import sharp from 'sharp';
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from './imageLimits';

export { MAX_IMAGE_PIXELS };

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
