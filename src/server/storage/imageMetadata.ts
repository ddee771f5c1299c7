/**
 * What an ID photo carries beside its picture, taken out before it is stored (issue 39 §5):
 * EXIF (where and when it was taken, GPS, the camera, maker notes, a thumbnail), XMP, IPTC,
 * comments and PNG text chunks, which staff would otherwise preview and download, and which could
 * hold a `<script>`. Only the picture and what draws it right (its colour profile, a PNG's
 * palette and transparency) are kept, byte for byte: no pixel is re-encoded. A picture stored
 * turned (an EXIF orientation other than 1) is turned by sharp and encoded again, so it shows the
 * right way up without the tag. A HEIC's metadata items go the same way (heifMetadata.ts).
 */
import { strippedHeif } from './heifMetadata';

/** JPEG markers kept whatever they hold: everything but APPn and COM (the picture's tables). */
function keptJpegSegment(marker: number, body: Buffer): boolean {
  if (marker === 0xfe) return false; // COM
  if (marker < 0xe0 || marker > 0xef) return true;
  const label = body.toString('latin1', 0, 12);
  if (marker === 0xe0) return label.startsWith('JFIF\0') || label.startsWith('JFXX\0');
  if (marker === 0xe2) return label.startsWith('ICC_PROFILE\0'); // colours, not metadata
  if (marker === 0xee) return label.startsWith('Adobe'); // how CMYK/YCC is to be read
  return false; // APP1 (EXIF, XMP), APP13 (IPTC), the makers' own segments
}

/** Markers without a length: SOI, EOI, RST0–7, TEM. */
const standalone = (marker: number) =>
  marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01;

/**
 * A JPEG without its APPn metadata segments and comments; null when its structure is not the
 * one expected (a file that decoded, so this does not happen; it is then re-encoded).
 */
function strippedJpeg(bytes: Buffer): Buffer | null {
  const kept: Buffer[] = [bytes.subarray(0, 2)];
  let at = 2;
  while (at + 1 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd9) {
      kept.push(bytes.subarray(at, at + 2));
      return Buffer.concat(kept);
    }
    if (standalone(marker)) {
      kept.push(bytes.subarray(at, at + 2));
      at += 2;
      continue;
    }
    if (at + 4 > bytes.length) return null;
    const next = at + 2 + bytes.readUInt16BE(at + 2);
    if (next > bytes.length) return null;
    if (keptJpegSegment(marker, bytes.subarray(at + 4, next))) kept.push(bytes.subarray(at, next));
    at = next;
    if (marker !== 0xda) continue;
    // A scan's entropy-coded data runs to the next marker that is not a stuffed byte or RSTn.
    const start = at;
    while (at + 1 < bytes.length) {
      if (bytes[at] === 0xff) {
        const following = bytes[at + 1]!;
        if (following !== 0x00 && !(following >= 0xd0 && following <= 0xd7)) break;
        at += 2;
      } else {
        at++;
      }
    }
    kept.push(bytes.subarray(start, at));
  }
  return null;
}

/** PNG chunks that draw the picture; text, EXIF, times and every other chunk are dropped. */
const PNG_KEPT = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'cHRM',
  'gAMA',
  'iCCP',
  'sBIT',
  'sRGB',
  'bKGD',
  'pHYs',
  'hIST',
]);

function strippedPng(bytes: Buffer): Buffer | null {
  const kept: Buffer[] = [bytes.subarray(0, 8)];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const next = at + 12 + length;
    if (next > bytes.length) return null;
    if (PNG_KEPT.has(type)) kept.push(bytes.subarray(at, next));
    if (type === 'IEND') return Buffer.concat(kept);
    at = next;
  }
  return null;
}

/** WebP chunks that draw the picture (VP8X's flags then say there is no EXIF or XMP). */
const WEBP_KEPT = new Set(['VP8X', 'ICCP', 'ANIM', 'ANMF', 'ALPH', 'VP8 ', 'VP8L']);
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

function strippedWebp(bytes: Buffer): Buffer | null {
  if (bytes.length < 12 || bytes.toString('latin1', 8, 12) !== 'WEBP') return null;
  const end = Math.min(bytes.length, 8 + bytes.readUInt32LE(4));
  const kept: Buffer[] = [];
  let at = 12;
  while (at + 8 <= end) {
    const type = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const next = at + 8 + size + (size % 2);
    if (at + 8 + size > end) return null;
    if (WEBP_KEPT.has(type)) {
      const chunk = Buffer.from(bytes.subarray(at, Math.min(next, end)));
      if (type === 'VP8X' && size > 0) chunk[8] = chunk[8]! & ~(VP8X_EXIF | VP8X_XMP);
      kept.push(chunk);
    }
    at = next;
  }
  const body = Buffer.concat(kept);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}

const STRIPPERS: Record<string, (bytes: Buffer) => Buffer | null> = {
  'image/jpeg': strippedJpeg,
  'image/png': strippedPng,
  'image/webp': strippedWebp,
  'image/heic': strippedHeif, // heifMetadata.ts; its JPEG rendition is made from pixels alone
};

/**
 * The image of `contentType` without its metadata, the picture's bytes kept as they are; null for
 * a type it does not rewrite or a structure it does not follow.
 */
export function withoutMetadata(bytes: Buffer, contentType: string): Buffer | null {
  return STRIPPERS[contentType]?.(bytes) ?? null;
}
