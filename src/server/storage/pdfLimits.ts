/** How far a PDF's streams may unpack (pdfEngine.ts, pdfStreams.ts), and how messages say it. */

/**
 * Most bytes one decoded stream may grow to. pdf.js grows its buffers without limit, outside the
 * JavaScript heap the worker's resource limits count: a few kilobytes of deflate bomb must not
 * take the machine's memory.
 */
export const MAX_DECODED_STREAM_BYTES = 64 * 1024 * 1024;

/** Most bytes all of a document's streams, images included, may unpack to together. */
export const MAX_PDF_INFLATED_BYTES = 128 * 1024 * 1024;

const MB = 1024 * 1024;

/** The refusal of a PDF past either bound. */
export const inflatingPdfMessage = (label: string) =>
  `The file for ${label} unpacks to too much data when opened (more than ${MAX_DECODED_STREAM_BYTES / MB} MB in one part, or ${MAX_PDF_INFLATED_BYTES / MB} MB in all). Please save or print it as a plain PDF and upload that.`;
