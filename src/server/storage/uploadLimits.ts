/**
 * Upload limits (docs/decisions.md, Upload limits: set every limit explicitly; a truncated file is
 * refused, not kept).
 */
export const UPLOAD_LIMITS = {
  fileSize: 20 * 1024 * 1024,
  files: 20,
  fields: 200,
  fieldSize: 1024 * 1024,
  parts: 240,
} as const;

/**
 * Room for one part's boundary line and headers: busboy refuses part headers above 16 KiB, and a
 * boundary line is at most 74 bytes with its CRLFs.
 */
const PART_OVERHEAD = 16 * 1024 + 128;

/**
 * The largest multipart body the limits above can let through: every file and field at its
 * largest, each with its headers. A longer body breaks some limit, so it is refused from its
 * declared length before a byte is read; up to this size, what follows an early refusal is read
 * and discarded, so that the browser (which reads no answer before its upload is sent) gets it.
 */
export const MULTIPART_BODY_LIMIT =
  UPLOAD_LIMITS.files * UPLOAD_LIMITS.fileSize +
  UPLOAD_LIMITS.fields * UPLOAD_LIMITS.fieldSize +
  UPLOAD_LIMITS.parts * PART_OVERHEAD;
