import { ApiError, NetworkError } from '../../api/client';

const UNKNOWN_FAILURE = 'Unknown error occurred.';

/** A failed submission as the page shows it. */
export interface RegistrationFailure {
  /** Access §8: the server's errorMessage, else the thrown message, else 'Unknown error occurred.' */
  message: string;
  /**
   * Sending the same answers again may succeed: the connection failed, or the server could not
   * handle the submission just then (5xx, 408, 429). A refusal (other 4xx) needs a changed answer.
   */
  retryable: boolean;
}

/**
 * Why a submission failed (access §8): the server's errorMessage, else the thrown message, else
 * 'Unknown error occurred.' (an answer without errorMessage included).
 */
export function registrationFailureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? UNKNOWN_FAILURE;
  return error instanceof Error && error.message ? error.message : UNKNOWN_FAILURE;
}

export function registrationFailure(error: unknown): RegistrationFailure {
  const retryable =
    error instanceof NetworkError ||
    (error instanceof ApiError &&
      (error.status >= 500 || error.status === 408 || error.status === 429));
  return { message: registrationFailureMessage(error), retryable };
}
