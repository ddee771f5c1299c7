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
    super(message);
  }

  body(): ApiErrorBody {
    return this.errors
      ? { errorMessage: this.message, errors: this.errors }
      : { errorMessage: this.message };
  }
}

export const badRequest = (message: string, errors?: Record<string, string>) =>
  new ClientError(400, message, errors);
export const unauthorized = (message = 'Please sign in to view that content.') =>
  new ClientError(401, message);
export const forbidden = (message = 'You do not have access to this.') =>
  new ClientError(403, message);
export const notFound = (message = 'Not found.') => new ClientError(404, message);
