/** The error body every failing API call answers with. */
export interface ApiErrorBody {
  errorMessage: string;
  /** Per-field messages keyed by JSON pointer or field name, when the failure is about answers. */
  errors?: Record<string, string>;
  /** Present on unexpected failures, so support can find the server's log line. */
  incidentId?: string;
}

/** The header carrying the CSRF token, which must equal the `csrf_token` cookie. */
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_COOKIE = 'csrf_token';
export const SESSION_COOKIE = 'clearing_session';
