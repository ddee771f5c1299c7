/**
 * Where an image file's own data ends (issue 27 §5). Bytes after a PNG's IEND chunk, a JPEG's
 * EOI marker, a WebP's RIFF size or a HEIC's last top-level box are not part of the picture:
 * every decoder ignores them, so an upload could carry a `<script>` or a second file there into
 * the staff console. Uploads are stored cut at this offset (the picture's bytes untouched).
 */

/** The PNG signature's length; chunks follow: length (4), type (4), data, CRC (4). */
const PNG_SIGNATURE = 8;

function pngEnd(bytes: Buffer): number | null {
  let at = PNG_SIGNATURE;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const next = at + 12 + length;
    if (next > bytes.length) return null;
    if (type === 'IEND') return next;
    at = next;
  }
  return null;
}

/** Markers without a length: SOI, EOI, RST0–7, TEM. */
function standalone(marker: number): boolean {
  return (
    marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01
  );
}

/**
 * Walks a JPEG's segments by their lengths (so an EXIF thumbnail's own EOI, inside APP1, is
 * skipped), and through each scan's entropy-coded data to the next marker, up to EOI.
 */
function jpegEnd(bytes: Buffer): number | null {
  let at = 2; // after SOI
  while (at + 1 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd9) return at + 2;
    if (standalone(marker)) {
      at += 2;
      continue;
    }
    if (at + 4 > bytes.length) return null;
    const next = at + 2 + bytes.readUInt16BE(at + 2);
    if (next > bytes.length) return null;
    at = next;
    if (marker !== 0xda) continue;
    // Entropy-coded data: 0xFF is followed by 0x00 (a stuffed byte) or RST0–7 inside it.
    while (at + 1 < bytes.length) {
      if (bytes[at] === 0xff) {
        const following = bytes[at + 1]!;
        if (following !== 0x00 && !(following >= 0xd0 && following <= 0xd7)) break;
        at += 2;
      } else {
        at++;
      }
    }
  }
  return null;
}

/** RIFF: `RIFF`, the size of what follows (little-endian), then `WEBP` and its chunks. */
function webpEnd(bytes: Buffer): number | null {
  if (bytes.length < 12) return null;
  const end = 8 + bytes.readUInt32LE(4);
  return end <= bytes.length ? end : null;
}

/**
 * ISO BMFF (HEIC): top-level boxes, each size (4; 1: a 64-bit size follows; 0: to the end) and a
 * four-letter type. The file ends after the last box that fits and is named in printable ASCII.
 */
function heicEnd(bytes: Buffer): number | null {
  let at = 0;
  while (at + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (!/^[\x20-\x7e]{4}$/.test(type)) break;
    if (size === 0) return bytes.length;
    if (size === 1) {
      if (at + 16 > bytes.length) break;
      size = Number(bytes.readBigUInt64BE(at + 8));
    }
    if (size < 8 || at + size > bytes.length) break;
    at += size;
  }
  return at > 0 ? at : null;
}

const ENDS: Record<string, (bytes: Buffer) => number | null> = {
  'image/png': pngEnd,
  'image/jpeg': jpegEnd,
  'image/webp': webpEnd,
  'image/heic': heicEnd,
};

/**
 * The offset where the image of `contentType` ends in `bytes` (a file that decoded as that type),
 * or null when its structure does not say (it is then kept whole).
 */
export function imageEnd(bytes: Buffer, contentType: string): number | null {
  return ENDS[contentType]?.(bytes) ?? null;
}
