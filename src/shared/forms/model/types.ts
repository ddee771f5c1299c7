/**
 * The contract of the form engine, shared by browser, server and CLI. A *form* is a JSON Schema
 * plus uiSchema pair in `schemas/<form-id>/`; *answers* are its form data.
 */

/**
 * A file answer: the bytes travel beside the answers, never inside them (docs/decisions.md, The
 * shape of answers).
 */
export interface FileReference {
  name: string;
  type: string;
  size: number;
}

/**
 * Whether an answer is a file reference (`{name, type, size}`): one answer, compared, kept and
 * sent whole, its bytes elsewhere. Every part asks this one check.
 */
export function isFileReference(value: unknown): value is FileReference {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const { name, type, size } = value as Record<string, unknown>;
  // rjsf may hand a widget the answer without its `type` while a rule refuses it (a chosen file
  // that is no image): still the file, named with Replace and Remove beside it.
  return (
    typeof name === 'string' &&
    typeof size === 'number' &&
    (type === undefined || typeof type === 'string')
  );
}

/** One validation message, at the JSON pointer of the answer it is about ('' = the whole form). */
export interface AnswerError {
  path: string;
  message: string;
}

export interface ValidationResult {
  valid: boolean;
  errors: AnswerError[];
}
