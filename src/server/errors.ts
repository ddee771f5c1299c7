import { defaultErrorCode, type ApiErrorBody, type ApiErrorCode } from '../shared/api/http';

/**
 * An error the client caused; the handler answers `statusCode` with its message and its `code`
 * (issue 40 §3: what a program acts on; by default the status's, `defaultErrorCode`), never a 500.
 */
export class ClientError extends Error {
  /** The machine-readable code answered beside the message (API_ERROR_CODES). */
  readonly code: ApiErrorCode;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
    /** Sent as Retry-After (429 and 503 answers). */
    readonly retryAfterSeconds?: number,
    code?: ApiErrorCode,
  ) {
    // A refusal is an answer, not a fault: no stack to capture (a 429 per attacker request spent
    // 2 % of the server's time on it); its message says all a log line needs.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.code =
      code ?? (statusCode === 400 && errors ? 'validation_failed' : defaultErrorCode(statusCode));
  }

  body(): ApiErrorBody {
    return this.errors
      ? { errorMessage: this.message, code: this.code, errors: this.errors }
      : { errorMessage: this.message, code: this.code };
  }
}

/** A refusal with a code more precise than its status's (`refusal(409, 'changes_locked', …)`). */
export const refusal = (
  statusCode: number,
  code: ApiErrorCode,
  message: string,
  errors?: Record<string, string>,
) => new ClientError(statusCode, message, errors, undefined, code);

/** Why an upload's content was refused (uploads.ts checkContent). */
type UploadRefusal =
  | 'active-content'
  | 'unreadable-pdf'
  | 'data-after-pdf-end'
  | 'inflating-pdf'
  | 'not-an-image'
  | 'oversize-image'
  | 'unreadable-heic';

/**
 * A 400 for an upload refused for what it holds rather than how it was sent: a security event,
 * which the multipart reader records in the audit trail before the refusal goes on
 * (storage/multipartForm.ts).
 */
export class RefusedUpload extends ClientError {
  constructor(
    message: string,
    readonly reason: UploadRefusal,
  ) {
    super(400, message, undefined, undefined, 'upload_refused');
  }
}

export const badRequest = (message: string, errors?: Record<string, string>) =>
  new ClientError(400, message, errors);
export const unauthorized = (message = 'Please sign in to view that content.') =>
  new ClientError(401, message);
export const forbidden = (message = 'You do not have access to this.') =>
  new ClientError(403, message);
export const notFound = (message = 'Not found.') => new ClientError(404, message);

/**
 * A change outside what a change request asked for (changeScope's one rule): 409 naming the
 * question by its prompt, at its pointer. Its own class so the refusal can be audited after
 * the transaction that found it rolls back.
 */
export class ChangeRefusedError extends ClientError {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(409, message, { [pointer]: message }, undefined, 'change_not_requested');
  }
}

/** One failed keyword of Fastify's schema validation (Ajv's error object, the fields used). */
interface ValidationFailure {
  instancePath: string;
  message?: string;
  params?: { missingProperty?: string; additionalProperty?: string };
}

/**
 * A request Fastify's schema refused: 400 `validation_failed`, its message as before, and each
 * failure by the JSON pointer of the field (into the part validated: body, query or params).
 */
export function validationRefusal(message: string, validation: unknown): ClientError {
  const errors: Record<string, string> = {};
  for (const failure of Array.isArray(validation) ? (validation as ValidationFailure[]) : []) {
    const field = failure.params?.missingProperty ?? failure.params?.additionalProperty;
    const pointer = field
      ? `${failure.instancePath}/${field.replace(/~/g, '~0').replace(/\//g, '~1')}`
      : failure.instancePath || '/';
    const text = failure.message ?? 'is not valid';
    errors[pointer] = errors[pointer] ? `${errors[pointer]}\n${text}` : text;
  }
  return new ClientError(
    400,
    `Invalid request: ${message}`,
    errors,
    undefined,
    'validation_failed',
  );
}
