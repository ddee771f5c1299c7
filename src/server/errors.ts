import type { ApiErrorBody } from '../shared/api/http';

/** An error the client caused; the handler answers `statusCode` with its message, never a 500. */
export class ClientError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
    /** Sent as Retry-After (429 and 503 answers). */
    readonly retryAfterSeconds?: number,
  ) {
    // A refusal is an answer, not a fault: no stack to capture (a 429 per attacker request spent
    // 2 % of the server's time on it); its message says all a log line needs.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
  }

  body(): ApiErrorBody {
    return this.errors
      ? { errorMessage: this.message, errors: this.errors }
      : { errorMessage: this.message };
  }
}

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
    super(400, message);
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
    super(409, message, { [pointer]: message });
  }
}
