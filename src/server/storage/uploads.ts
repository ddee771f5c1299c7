import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import sharp from 'sharp';
import { imageFileTypes } from '../../shared/forms/validation/fileTypes';
import type { StoredFile } from '../db/documents';
import { ClientError, RefusedUpload } from '../errors';
import { MAX_IMAGE_PIXELS, oversizeImage } from './contentChecks';
import { imageEnd } from './imageEnd';
import { withoutMetadata } from './imageMetadata';
import { inflatingPdfMessage } from './pdfLimits';
import { decodeHeic, inspectPdf, InspectionThreadError } from './inspectionThreads';

/** What an upload must be, judged by its content (never by its name or declared type). */
export type UploadKind = 'image' | 'pdf' | 'image-or-pdf';

/**
 * Image types by what their header shows; which of them an ID image may be is the schema's rule
 * (`imageFileTypes`: JPEG, PNG, WebP, HEIC). SVG is never among them (it can carry script).
 * HEIF is split by its coding: HEIC (HEVC, what phones save) and AVIF (AV1).
 */
function imageTypeOf(format: string | undefined, compression: string | undefined): string | null {
  if (format === 'heif') {
    return compression === 'hevc' ? 'image/heic' : compression === 'av1' ? 'image/avif' : null;
  }
  const types: Record<string, string> = {
    jpeg: 'image/jpeg',
    png: 'image/png',
    webp: 'image/webp',
    gif: 'image/gif',
    tiff: 'image/tiff',
  };
  return (format && types[format]) || null;
}
/** How messages name the image types. */
const IMAGE_TYPE_NAMES: Record<string, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/heic': 'HEIC',
  'image/avif': 'AVIF',
  'image/gif': 'GIF',
  'image/tiff': 'TIFF',
};
/** Longest side of a preview rendition: ID details stay legible, the page stays light. */
const PREVIEW_SIDE = 2048;
const STORAGE_NAME = /^[a-f0-9]{32}$/;

/** The folder uploads live in: under the data folder, never under a served one. */
function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/**
 * The path of a file stored on disk by an earlier version (documents now live in the database);
 * refuses anything but a storage name this module made.
 */
export function storedPath(dataDir: string, storageName: string): string {
  if (!STORAGE_NAME.test(storageName)) throw new Error('invalid storage name');
  return path.join(uploadsDir(dataDir), storageName);
}

/** Where requests spool uploads while checking them; nothing here is ever referenced by a row. */
export function spoolDir(dataDir: string): string {
  return path.join(uploadsDir(dataDir), 'spool');
}

/**
 * The spool path of an upload. The process id in the name lets the orphan sweep tell a dead
 * process's leftovers from a running request's file.
 */
function spoolPath(dataDir: string, storageName: string): string {
  if (!STORAGE_NAME.test(storageName)) throw new Error('invalid storage name');
  return path.join(spoolDir(dataDir), `${process.pid}.${storageName}`);
}

/**
 * Deletes an upload's spool copy (the request is over, or failed); a missing file is not an
 * error. Never deletes a stored document: those live in the database.
 */
export async function deleteStored(dataDir: string, storageName: string): Promise<void> {
  await fs.promises.rm(spoolPath(dataDir, storageName), { force: true });
}

/**
 * Streams a multipart file to the spool (`dataDir/uploads/spool`) and checks its content: an image must
 * decode, a PDF must parse. A truncated (oversize), empty or unreadable file is deleted and
 * refused with a 4xx ClientError naming the field.
 */
export async function saveUpload(
  part: MultipartFile,
  options: { dataDir: string; accept: UploadKind; label?: string },
): Promise<StoredFile> {
  const label = options.label ?? part.fieldname;
  await fs.promises.mkdir(spoolDir(options.dataDir), { recursive: true, mode: 0o700 });
  const storageName = crypto.randomBytes(16).toString('hex');
  const target = spoolPath(options.dataDir, storageName);
  try {
    await pipeline(part.file, fs.createWriteStream(target, { flags: 'wx', mode: 0o600 }));
    if (part.file.truncated) {
      throw new ClientError(413, `The file for ${label} is too large.`);
    }
    const { size: sent } = await fs.promises.stat(target);
    if (sent === 0) throw new ClientError(400, `The file for ${label} is empty.`);
    const { contentType, preview } = await checkContent(target, options.accept, label);
    const size =
      contentType === 'application/pdf'
        ? sent
        : await storeImageClean(target, sent, contentType, label);
    return {
      storageName,
      size,
      contentType,
      ...(preview ? { preview } : {}),
      originalName: cleanName(part.filename),
      spoolPath: target,
    };
  } catch (error) {
    await fs.promises.rm(target, { force: true });
    if (error instanceof ClientError || error instanceof InspectionThreadError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new ClientError(413, `The file for ${label} is too large.`);
    }
    // A disk failure carries a syscall and stays a 500; anything else broke while reading the
    // upload (busboy's "Unexpected end of form", a cut connection): the request's fault.
    if (!(error as { syscall?: string }).syscall) {
      throw new ClientError(400, `The upload of ${label} did not complete. Please try again.`);
    }
    throw error;
  }
}

/**
 * Checks a file on disk by content; returns its real content type (and, for a HEIC photo, a JPEG
 * rendition for staff) or throws a ClientError.
 */
export async function checkContent(
  file: string,
  accept: UploadKind,
  label: string,
): Promise<{ contentType: string; preview?: Buffer }> {
  const looksPdf = await startsWith(file, '%PDF-');
  if (accept === 'pdf' || (accept === 'image-or-pdf' && looksPdf)) {
    // Judged as the viewer that opens it reads it (pdf.js's parser, in a worker thread).
    const inspection = looksPdf ? await inspectPdf(file) : null;
    if (!inspection || inspection.verdict === 'unreadable') {
      throw new RefusedUpload(`The file for ${label} is not a readable PDF.`, 'unreadable-pdf');
    }
    // Staff open these files: a PDF that runs scripts or carries files is refused, not stored.
    if (inspection.verdict === 'active') {
      throw new RefusedUpload(
        `The file for ${label} contains active content (scripts, automatic actions or embedded files), which we do not accept. Please save or print it as a plain PDF and upload that.`,
        'active-content',
      );
    }
    if (inspection.verdict === 'inflating') {
      throw new RefusedUpload(inflatingPdfMessage(label), 'inflating-pdf');
    }
    if (!(await endsAsPdf(file))) {
      throw new RefusedUpload(
        `The file for ${label} does not end where a PDF ends (data follows its end, or its end is missing). Please save or print it as a plain PDF and upload that.`,
        'data-after-pdf-end',
      );
    }
    return { contentType: 'application/pdf' };
  }
  // Dimensions come from the header alone, before any pixel is decoded.
  const oversize = await oversizeImage(file);
  if (oversize) {
    throw new RefusedUpload(
      `The image for ${label} is too large (${oversize}). Please send a picture of at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`,
      'oversize-image',
    );
  }
  const image = await decodedImage(file);
  if (!image) {
    const accepted = imageFileTypes().map((type) => IMAGE_TYPE_NAMES[type] ?? type);
    const list = `${accepted.slice(0, -1).join(', ')} or ${accepted.at(-1)}`;
    const wanted = accept === 'image' ? `an image (${list})` : 'an image or a PDF';
    throw new RefusedUpload(`The file for ${label} must be ${wanted}.`, 'not-an-image');
  }
  return image;
}

/**
 * Stores an image without what follows its end marker (imageEnd.ts: a `<script>` after a PNG's
 * IEND, a file after a JPEG's EOI) and without its metadata (imageMetadata.ts: EXIF and its GPS,
 * XMP, comments, PNG text chunks), so nothing staff preview or download carries them. The
 * picture's own bytes stay as sent, unless it is stored turned (an EXIF orientation): it is then
 * turned and encoded again. A HEIC loses its metadata items (EXIF, XMP) and keeps its picture and
 * its orientation (HEIF's own `irot`/`imir`) byte for byte; one whose boxes cannot be followed
 * is refused, since it cannot be stored without what it says about where it was taken.
 * Returns the size kept.
 */
async function storeImageClean(
  file: string,
  size: number,
  contentType: string,
  label: string,
): Promise<number> {
  const sent = await fs.promises.readFile(file);
  const end = imageEnd(sent, contentType);
  const picture = end === null || end >= size ? sent : sent.subarray(0, end);
  const kept =
    contentType === 'image/heic'
      ? heicAlone(picture, label)
      : await pictureAlone(picture, contentType);
  if (kept === sent) return size;
  await fs.promises.writeFile(file, kept);
  return kept.length;
}

type Picture = ReturnType<typeof sharp>;

/** Encoders for a picture turned upright: metadata is never written (sharp's default). */
const UPRIGHT: Record<string, (image: Picture, lossless: boolean) => Picture> = {
  'image/jpeg': (image) => image.jpeg({ quality: 92 }),
  'image/png': (image) => image.png(),
  'image/webp': (image, lossless) => image.webp(lossless ? { lossless: true } : { quality: 92 }),
};

function heicAlone(picture: Buffer, label: string): Buffer {
  const stripped = withoutMetadata(picture, 'image/heic');
  if (!stripped) {
    throw new RefusedUpload(
      `The photo for ${label} could not be read. Please send it as a JPEG or PNG.`,
      'unreadable-heic',
    );
  }
  return stripped.equals(picture) ? picture : stripped;
}

async function pictureAlone(picture: Buffer, contentType: string): Promise<Buffer> {
  const encode = UPRIGHT[contentType];
  if (!encode) return picture;
  const image = sharp(picture, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS });
  const { orientation } = await image.metadata();
  if (!orientation || orientation === 1) {
    const stripped = withoutMetadata(picture, contentType);
    if (stripped) return stripped.equals(picture) ? picture : stripped;
  }
  const lossless = contentType === 'image/webp' && picture.includes('VP8L', 12, 'latin1');
  return encode(image.rotate(), lossless).toBuffer();
}

/**
 * What may follow a PDF's last `%%EOF` (issue 39 §5): line ends, spaces and NULs that writers and
 * mail transports add, up to this many bytes. Anything else there (a ZIP holding a `<script>`, an
 * HTML page) is no part of the document: every viewer ignores it, and a file that is also
 * something else is refused rather than stored.
 */
const PDF_END_TOLERANCE = 1024;
const PDF_END = Buffer.from('%%EOF', 'latin1');

/** Whether the file's last `%%EOF` ends it, but for a little whitespace or NULs. */
async function endsAsPdf(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, PDF_END_TOLERANCE + PDF_END.length);
    const tail = Buffer.alloc(length);
    await handle.read(tail, 0, length, size - length);
    const end = tail.lastIndexOf(PDF_END);
    if (end < 0) return false;
    return /^[\0\t\n\f\r ]*$/.test(tail.toString('latin1', end + PDF_END.length));
  } finally {
    await handle.close();
  }
}

async function startsWith(file: string, magic: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(magic.length);
    const { bytesRead } = await handle.read(buffer, 0, magic.length, 0);
    return bytesRead === magic.length && buffer.toString('latin1') === magic;
  } finally {
    await handle.close();
  }
}

/**
 * An image of a type the schema accepts that decodes completely: its content type, and for HEIC
 * (decoded by libheif in the inspection thread; sharp's libvips reads only its header) a JPEG
 * rendition staff can preview, since browsers do not show HEIC. Null for anything else.
 */
async function decodedImage(
  file: string,
): Promise<{ contentType: string; preview?: Buffer } | null> {
  try {
    const image = sharp(file, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS });
    const { format, compression } = await image.metadata();
    const type = imageTypeOf(format, compression);
    if (!type || !imageFileTypes().includes(type)) return null;
    if (type !== 'image/heic') {
      await image.stats(); // decodes every pixel: a truncated or corrupt body fails here
      return { contentType: type };
    }
    const decoded = await decodeHeic(file);
    if (decoded.verdict !== 'decoded') return null;
    const preview = await sharp(decoded.rgba, {
      raw: { width: decoded.width, height: decoded.height, channels: 4 },
      limitInputPixels: MAX_IMAGE_PIXELS,
    })
      .flatten({ background: '#ffffff' })
      .resize({
        width: PREVIEW_SIDE,
        height: PREVIEW_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .jpeg({ quality: 85 })
      .toBuffer();
    return { contentType: type, preview };
  } catch (error) {
    if (error instanceof InspectionThreadError) throw error; // the server's fault, not the file's
    return null;
  }
}

/** The client's file name, reduced to a harmless display string. */
function cleanName(name: string | undefined): string {
  const base = path.basename((name ?? '').replace(/\\/g, '/'));
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"<>]/g, '').trim();
  return clean.slice(0, 200) || 'upload';
}
