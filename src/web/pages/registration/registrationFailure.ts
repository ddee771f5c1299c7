import { ApiError } from '../../api/client';

const UNKNOWN_FAILURE = 'Unknown error occurred.';

/**
 * Why a submission failed (access §8): the server's errorMessage, else the thrown message, else
 * 'Unknown error occurred.' (an answer without errorMessage included).
 */
export function registrationFailureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? UNKNOWN_FAILURE;
  return error instanceof Error && error.message ? error.message : UNKNOWN_FAILURE;
}
