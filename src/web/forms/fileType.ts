/**
 * What a chosen file is, by its first bytes (not its name or the type the browser guessed from the
 * name): PDF, PNG, JPEG, WebP or HEIC (the HEVC-coded HEIF phones save), the kinds the forms
 * take, and AVIF (another HEIF, named so the schema can refuse it by name). The upload widgets record it as the
 * answer's `type`, so the schema's type rule and its message refuse a "PDF" that is not one beside
 * the field at once, before anything is sent. The server checks the content again on its own.
 */

/** The type of a file that is none of the known kinds. */
export const UNKNOWN_FILE_TYPE = 'application/octet-stream';

const SIGNATURES: Array<{ type: string; matches: (bytes: Uint8Array) => boolean }> = [
  { type: 'application/pdf', matches: (b) => startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d]) }, // %PDF-
  {
    type: 'image/png',
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { type: 'image/jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  {
    // RIFF....WEBP
    type: 'image/webp',
    matches: (b) =>
      startsWith(b, [0x52, 0x49, 0x46, 0x46]) &&
      startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  },
];

/** HEIF brands of HEVC-coded images and sequences (ISO/IEC 23008-12, annex B). */
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);

/**
 * The type an ISO base media file (`....ftyp<major><minor><compatible…>`) shows by its brands:
 * HEIC when any brand names HEVC coding (an iPhone's `heic`, or `mif1` listing `heic`), AVIF
 * when one names AV1; null for anything else.
 */
function heifType(bytes: Uint8Array): string | null {
  const text = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length < 16 || text(4, 8) !== 'ftyp') return null;
  const boxSize = (bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!;
  const end = Math.min(bytes.length, boxSize > 16 ? boxSize : 16);
  const brands = [text(8, 12)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(text(at, at + 4));
  if (brands.some((brand) => HEIC_BRANDS.has(brand))) return 'image/heic';
  if (brands.some((brand) => brand === 'avif' || brand === 'avis')) return 'image/avif';
  return null;
}

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((byte, index) => bytes[index] === byte);
}

/** The MIME type `bytes` (a file's start) show, or {@link UNKNOWN_FILE_TYPE}. */
export function fileTypeOf(bytes: Uint8Array): string {
  return (
    SIGNATURES.find((signature) => signature.matches(bytes))?.type ??
    heifType(bytes) ??
    UNKNOWN_FILE_TYPE
  );
}

/** Reads the first bytes of `file` and names its type (see {@link fileTypeOf}). */
export async function sniffFileType(file: Blob): Promise<string> {
  // 64 bytes hold a HEIF file's brand list (an iPhone's is 24 bytes long).
  return fileTypeOf(new Uint8Array(await readBytes(file.slice(0, 64))));
}

function readBytes(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  // Older engines (and jsdom) have FileReader only.
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.readAsArrayBuffer(blob);
  });
}
