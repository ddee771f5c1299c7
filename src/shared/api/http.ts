import type { FromSchema } from 'json-schema-to-ts';

/** The error body every failing API call answers with (each route's 4xx and 5xx). */
export const apiErrorBodySchema = {
  type: 'object',
  properties: {
    errorMessage: { type: 'string' },
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
  required: ['errorMessage'],
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
