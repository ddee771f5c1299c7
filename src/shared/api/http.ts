import type { FromSchema } from 'json-schema-to-ts';

/**
 * The machine-readable `code` of every refusal (issue 40 §3), with what it means: stable, so a
 * program can act on it, where `errorMessage` is words for a person and may change. The
 * document's Error component lists them (its enum) and docs/api.md has the table.
 */
export const API_ERROR_CODES = {
  invalid_request: 'The request could not be read (malformed JSON, a bad address or header).',
  validation_failed:
    'A field or answer was refused (400 for the request body, 422 for a form’s answers); `errors` names each by JSON pointer.',
  upload_refused:
    'A file was refused for what it holds (active content, an unreadable PDF, not an image).',
  unauthorized: 'Not signed in, or the session has ended: sign in again.',
  invalid_credentials: 'The email and password, or the second-factor code, do not match.',
  second_factor_required: 'The sign-in needs a second factor; `errors.secondFactor` lists which.',
  signin_locked: 'Too many failed sign-ins for this account: wait, or reset the password.',
  forbidden: 'Signed in, but not allowed (staff only, or another organisation’s).',
  credential_invalid:
    'The `Authorization: Bearer` API credential is malformed or no credential has that secret.',
  credential_revoked:
    'The API credential was revoked, or its maker is no longer an Administrator: ask for a new one.',
  scope_missing:
    'The API credential lacks the scope the call needs; `errorMessage` and `WWW-Authenticate` name it.',
  credential_not_accepted:
    'The call takes no API credential (the signed-in user’s own details, the session, password, second factor, credentials): sign in.',
  csrf_missing:
    'The CSRF header is missing or does not match the session’s `csrf_token` cookie: fetch the cookie again (any GET) and retry.',
  cross_site: 'A state-changing call from another site’s Origin.',
  not_found: 'No such thing (or not yours to see).',
  conflict: 'The state has moved on (already decided, already registered, already on).',
  stale_revision:
    'The save was based on an older revision; the answer carries the stored application.',
  changes_locked:
    'The application or registration can no longer be changed (submitted, or no longer waiting for changes).',
  schema_changed:
    'The form’s wording changed since it was fetched (its schemaHash): fetch the form again.',
  change_not_requested: 'A change outside what the change request asked for (at its pointer).',
  payload_too_large: 'The body, a file or a field is too large.',
  unsupported_media_type: 'The call expects another content type (form data, JSON).',
  rate_limited: 'Too many attempts: wait as long as `Retry-After` says.',
  internal_error: 'An unexpected failure; `incidentId` names the server’s log line.',
  unavailable: 'The database is away for a moment: retry after `Retry-After`.',
} as const;

export type ApiErrorCode = keyof typeof API_ERROR_CODES;

/** The code a refusal of this status carries unless it names a more precise one. */
export function defaultErrorCode(statusCode: number): ApiErrorCode {
  switch (statusCode) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'validation_failed';
    case 429:
      return 'rate_limited';
    case 503:
      return 'unavailable';
    default:
      return statusCode >= 500 ? 'internal_error' : 'invalid_request';
  }
}

/** The error body every failing API call answers with (each route's 4xx and 5xx). */
export const apiErrorBodySchema = {
  type: 'object',
  properties: {
    errorMessage: { type: 'string', description: 'For a person: shown as it is.' },
    code: {
      type: 'string',
      enum: Object.keys(API_ERROR_CODES) as ApiErrorCode[],
      description: 'For a program: what went wrong, stable (docs/api.md, Error codes).',
    },
    /** Per-field messages keyed by JSON pointer or field name, when the failure is about answers. */
    errors: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Per-field messages keyed by JSON pointer or field name.',
    },
    incidentId: {
      type: 'string',
      description: "Present on unexpected failures, so support can find the server's log line.",
    },
  },
  required: ['errorMessage', 'code'],
  additionalProperties: false,
} as const;

export type ApiErrorBody = FromSchema<typeof apiErrorBodySchema>;

/** A UUID, any case (ids in paths and bodies). */
export const UUID_PATTERN =
  '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const UUID = new RegExp(UUID_PATTERN);

export const isUuid = (value: string | undefined): value is string =>
  value !== undefined && UUID.test(value);

/** The header carrying the CSRF token, which must equal the `csrf_token` cookie. */
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_COOKIE = 'csrf_token';
export const SESSION_COOKIE = 'clearing_session';

/**
 * The name a cookie is set under: over https the session and CSRF cookies carry the `__Host-`
 * prefix (ASVS 5.0 3.3.3; issue 39 §5), which browsers accept only Secure, for the whole site
 * (Path=/) and from this host alone (no Domain), so a sibling subdomain or a plain-http answer
 * cannot plant or overwrite one. The server reads the prefixed cookie under the plain name.
 */
export function cookieName(name: string, secure: boolean): string {
  return secure ? `__Host-${name}` : name;
}

/** The answer of a call that has nothing to say but success: `{}`. */
export const emptyObjectSchema = {
  type: 'object',
  properties: {},
  additionalProperties: false,
} as const;
