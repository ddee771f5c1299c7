/**
 * pdf.js's parser (Mozilla's viewer engine, `pdfjs-dist`, Apache-2.0), reached below its public
 * API. The public API answers what a viewer shows (JavaScript actions, attachments, links) and
 * drops what it does not understand (a SubmitForm, an ImportData, a GoToR turned into a bare
 * URL), so a check built on it would be lossy. Its parser resolves a document exactly as the
 * viewer does: objects through the cross-reference offsets (rebuilt by scanning when they are
 * broken), object streams whatever their /Type says, names with `#xx` escapes in any case,
 * indirect values, and strings and streams decrypted with the empty user password. Those classes
 * are not exported by the bundle, so this module loads the bundle's text with an export line
 * added (the version is pinned in package.json; tests fail if an upgrade moves them).
 *
 * Loaded only inside the inspection worker (inspection.worker.ts): the bundle's polyfills
 * stay out of the server's thread.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { MAX_DECODED_STREAM_BYTES } from './pdfLimits';

/** A PDF name (`/Launch`): pdf.js interns them, with every `#xx` escape decoded. */
export interface PdfName {
  name: string;
}
/** An indirect reference (`6 0 R`). */
export interface PdfRef {
  num: number;
  gen: number;
}
/** A PDF dictionary; `getRaw` leaves references unresolved, `get` resolves them. */
export interface PdfDict {
  getKeys(): string[];
  getRaw(key: string): unknown;
  has(key: string): boolean;
}
/** A stream: its dictionary; its decoded bytes only to measure them (pdfStreams.ts). */
export interface PdfStream {
  dict: PdfDict | null;
  /** Back to the stream's first byte. */
  reset(): void;
  /** Every decoded byte (a view of the stream's own buffer), within the decode limit. */
  getBytes(): Uint8Array;
  /** The stream a filter reads from (absent on raw data). */
  stream?: PdfStream;
}
export interface PdfXRef {
  fetch(ref: PdfRef): unknown;
  getCatalogObj(): unknown;
}
interface PdfDocumentCore {
  checkHeader(): void;
  parseStartXRef(): void;
  parse(recoveryMode: boolean): void;
  readonly numPages: number | Promise<number>;
  xref: PdfXRef;
}
interface LocalPdfManagerOptions {
  source: Uint8Array;
  docId: string;
  password: string;
  enableXfa: boolean;
  evaluatorOptions: Record<string, unknown>;
  handler: null;
}
type Constructor<T> = abstract new (...args: never[]) => T;

/** The parser classes this module re-exports from the bundle. */
export interface PdfEngine {
  LocalPdfManager: new (options: LocalPdfManagerOptions) => { pdfDocument: PdfDocumentCore };
  Dict: Constructor<PdfDict>;
  Name: Constructor<PdfName>;
  Ref: Constructor<PdfRef>;
  BaseStream: Constructor<PdfStream>;
  DecodeStream: { prototype: { ensureBuffer(requested: number): Uint8Array } };
  /** The picture codecs' filters (DCT, JPX, JBIG2, CCITT fax): pdfStreams.ts does not run them. */
  JpegStream: Constructor<PdfStream>;
  JpxStream: Constructor<PdfStream>;
  Jbig2Stream: Constructor<PdfStream>;
  CCITTFaxStream: Constructor<PdfStream>;
  XRefParseException: Constructor<Error>;
  setVerbosityLevel(level: number): void;
}

const EXPORTED = [
  'LocalPdfManager',
  'Dict',
  'Name',
  'Ref',
  'BaseStream',
  'DecodeStream',
  'JpegStream',
  'JpxStream',
  'Jbig2Stream',
  'CCITTFaxStream',
  'XRefParseException',
  'setVerbosityLevel',
];

/** A stream grew past the decode limit: the document unpacks to more than is accepted. */
export class DecodedStreamTooLarge extends Error {
  override name = 'DecodedStreamTooLarge';
}

/** The most one stream decoded now may grow to: {@link MAX_DECODED_STREAM_BYTES} or less. */
let decodeLimit = MAX_DECODED_STREAM_BYTES;

/** Runs `work` with streams decoded in it allowed at most `limit` bytes each. */
export function withDecodeLimit<T>(limit: number, work: () => T): T {
  const before = decodeLimit;
  decodeLimit = Math.min(limit, MAX_DECODED_STREAM_BYTES);
  try {
    return work();
  } finally {
    decodeLimit = before;
  }
}

/** The engine could not be loaded (a pdfjs-dist upgrade moved its classes): the server's fault. */
export class PdfEngineLoadError extends Error {
  override name = 'PdfEngineLoadError';
}

let engine: Promise<PdfEngine> | undefined;

/** The engine, loaded once per thread. */
export function loadPdfEngine(): Promise<PdfEngine> {
  engine ??= (async () => {
    const bundle = createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
    const source = fs.readFileSync(bundle, 'utf8');
    const marker = 'export { WorkerMessageHandler };';
    if (!source.includes(marker)) {
      throw new PdfEngineLoadError(`pdfjs-dist changed its bundle: ${bundle}`);
    }
    const patched = source.replace(
      marker,
      `export { WorkerMessageHandler, ${EXPORTED.join(', ')} };`,
    );
    const loaded = (await import(
      `data:text/javascript;base64,${Buffer.from(patched).toString('base64')}`
    )) as PdfEngine;
    for (const name of EXPORTED) {
      if (!(name in loaded)) throw new PdfEngineLoadError(`pdfjs-dist no longer defines ${name}`);
    }
    loaded.setVerbosityLevel(0); // errors only: its warnings would quote document content
    const ensureBuffer = loaded.DecodeStream.prototype.ensureBuffer;
    loaded.DecodeStream.prototype.ensureBuffer = function (requested: number) {
      if (requested > decodeLimit) throw new DecodedStreamTooLarge();
      return ensureBuffer.call(this, requested);
    };
    return loaded;
  })();
  return engine;
}

/** Why a document could not be opened, or its parsed cross-reference. */
type OpenedPdf = { xref: PdfXRef; pages: number } | { unreadable: string };

/**
 * Opens a document as pdf.js's viewer does: header, cross-reference (scanned again in recovery
 * mode when the offsets are broken, as the viewer retries), the empty user password.
 */
export async function openPdf(engineClasses: PdfEngine, bytes: Uint8Array): Promise<OpenedPdf> {
  const open = async (recoveryMode: boolean) => {
    const manager = new engineClasses.LocalPdfManager({
      source: bytes,
      docId: 'upload',
      password: '',
      enableXfa: false,
      evaluatorOptions: {},
      handler: null,
    });
    const document = manager.pdfDocument;
    document.checkHeader();
    document.parseStartXRef();
    document.parse(recoveryMode);
    return { xref: document.xref, pages: await document.numPages };
  };
  try {
    try {
      return await open(false);
    } catch (error) {
      if (!(error instanceof engineClasses.XRefParseException)) throw error;
      return await open(true);
    }
  } catch (error) {
    return { unreadable: (error as Error)?.name || 'error' };
  }
}
