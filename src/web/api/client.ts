/**
 * The only module that calls `fetch`. Every call sends JSON (or form data) with the session cookie
 * and the CSRF header, turns a failing answer into an `ApiError` carrying the server's
 * `errorMessage` and no answer at all into a `NetworkError`, and sends the browser to the exchange sign-in on a 401 (business §2.7).
 */
import type { ApiErrorBody } from '../../shared/api/http';
import { cookieName, CSRF_COOKIE, CSRF_HEADER } from '../../shared/api/http';
import { SIGN_IN_NOTICE_PARAM, type SignInNotice } from '../../shared/api/signInNotices';

export const API_BASE = '/exchange/api/web';
/** Where a 401 sends the browser; the standalone server redirects it to /clearing/signin. */
export const EXCHANGE_SIGN_IN_PATH = '/exchange/dashboard/signin';
/** Shown when a failure carries no message of its own (business §2.7). */
export const GENERIC_FAILURE_MESSAGE = 'Our website is having some issues. Please try again later.';

/** A failed call: HTTP status plus the server's error body when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly incidentId: string | undefined;
  readonly errors: Record<string, string> | undefined;
  /** The server's own `errorMessage`, when its answer carried one. */
  readonly serverMessage: string | undefined;
  /** The whole error body (a 409 on an application carries the server's copy beside the message). */
  readonly body: Partial<ApiErrorBody> | null;

  constructor(status: number, body: Partial<ApiErrorBody> | null) {
    super(body?.errorMessage || GENERIC_FAILURE_MESSAGE);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.serverMessage = body?.errorMessage || undefined;
    this.incidentId = body?.incidentId;
    this.errors = body?.errors;
  }
}

/** Why a call got no answer at all: the network, not the server, failed. */
export const NETWORK_FAILURE_MESSAGE =
  'The connection to our website was lost before it answered. Please check your internet connection and try again.';

/**
 * A call that got no answer: the browser could not connect, or the connection broke while the
 * request or its answer was on the way. Never the server's judgement, so trying again may work.
 */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(NETWORK_FAILURE_MESSAGE, { cause });
    this.name = 'NetworkError';
  }
}

/**
 * A background call (an autosave, an upload, an LEI lookup) met an ended sign-in: said where the
 * call's outcome shows, never by leaving the half-filled form.
 */
export const SESSION_EXPIRED_MESSAGE =
  'Not saved: your session has expired. Sign in again to save; your answers are kept here.';

/** The message to show for any thrown value: the server's errorMessage first. */
export function errorMessageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return GENERIC_FAILURE_MESSAGE;
}

/** The CSRF header every state-changing call carries (its value read from the cookie). */
export function csrfHeaders(): Record<string, string> {
  const token = csrfToken();
  return token ? { [CSRF_HEADER]: token } : {};
}

/** The CSRF cookie's token: over https it is named `__Host-csrf_token` (cookieName). */
function csrfToken(): string | undefined {
  return readCookie(cookieName(CSRF_COOKIE, true)) ?? readCookie(CSRF_COOKIE);
}

function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** The URL of the exchange sign-in carrying the path to come back to and the 401 notice key. */
function unauthenticatedRedirectUrl(currentPath: string): string {
  const query = new URLSearchParams({
    redirect: currentPath,
    [SIGN_IN_NOTICE_PARAM]: 'unauthenticated' satisfies SignInNotice,
  });
  return `${EXCHANGE_SIGN_IN_PATH}?${query.toString()}`;
}

/** Full page loads go through here (one seam for tests; jsdom cannot navigate). */
export const browserLocation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/** Full-page redirect to the sign-in after a 401 (business §2.7, §6). */
export function redirectToSignIn(): void {
  const { pathname, search } = window.location;
  browserLocation.assign(unauthenticatedRedirectUrl(pathname + search));
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** A JSON body, or FormData for multipart calls. */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Whether a 401 sends the browser to the sign-in. Off for auth/* calls (a wrong password is a
   * 401) and for the current-user check (a 401 there just means "signed out").
   */
  redirectOnUnauthenticated?: boolean;
  /** Let the request outlive the page (a save on `pagehide`); bodies up to 64 kB only. */
  keepalive?: boolean;
}

/** Calls `API_BASE/<path>` and answers the parsed JSON body (undefined when empty). */
export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (method !== 'GET') {
    const token = csrfToken();
    if (token) headers[CSRF_HEADER] = token;
  }

  let response: Response;
  let parsed: unknown;
  try {
    response = await fetch(`${API_BASE}/${path}`, {
      method,
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
      keepalive: options.keepalive,
    });
    parsed = await parseBody(response);
  } catch (error) {
    // A cancelled call stays a cancellation; anything else here is the network's failure
    // (fetch's bare "Failed to fetch"), said in words a customer can act on.
    if (options.signal?.aborted) throw error;
    throw new NetworkError(error);
  }

  if (!response.ok) {
    const redirect = options.redirectOnUnauthenticated ?? !path.startsWith('auth/');
    if (response.status === 401 && redirect) redirectToSignIn();
    throw new ApiError(response.status, isErrorBody(parsed) ? parsed : null);
  }
  return parsed as T;
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isErrorBody(value: unknown): value is Partial<ApiErrorBody> {
  return typeof value === 'object' && value !== null && 'errorMessage' in value;
}
