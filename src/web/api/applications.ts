/**
 * The applicant's application on the server (issue 17): answers saved as they are given, files
 * uploaded when chosen, opened on any device. One function per call of the applications API.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { queryOptions } from '@tanstack/react-query';
import type {
  ApplicationFileResult,
  ApplicationView,
  SaveApplicationRequest,
  SaveApplicationResult,
} from '../../shared/api/applications';
import { API_BASE, ApiError, apiFetch, csrfHeaders, isErrorBody, NetworkError } from './client';
import { getApplication, takeEarly } from './get-application';

/** What the server keeps of one registration form's application (GET, and beside a 409). */
export type Application = ApplicationView;
type SavedApplication = SaveApplicationResult;
type UploadedFile = ApplicationFileResult;

const path = (formId: string) => `applications/${encodeURIComponent(formId)}`;

const applicationQueryKey = (formId: string) => ['application', formId] as const;

/** The application as a query: the account-type choice asks it to know where to go. */
export function applicationQueryOptions(formId: string) {
  return queryOptions({
    queryKey: applicationQueryKey(formId),
    queryFn: () => takeEarly(formId) ?? getApplication(formId),
    // The page opens on what the server holds now, never a cached copy of another visit.
    staleTime: 0,
    gcTime: 0,
    // Once open, the page's session holds the application: asking again would change nothing.
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/** The application a page opens its form on: `data` only once fetched for this visit. */
type ApplicationLoad = {
  error: Error | null;
  refetch: () => unknown;
} & (
  | {
      /** The application as the server holds it now (null: none yet). */
      data: Application | null;
      isSuccess: true;
      isPending: false;
      isError: false;
    }
  | { data: undefined; isSuccess: false; isPending: boolean; isError: boolean }
);

type Load =
  | { status: 'pending' }
  | { status: 'success'; data: Application | null }
  | { status: 'error'; error: Error };

/**
 * The application as the server holds it now, for a page that opens a form on it: asked once
 * per visit (taking the GET the route started beside the page's code), held in the page's own
 * state, never in the query cache. A copy an earlier visit left in the cache is never taken (the
 * form would open on that visit's answers and step, and its session is made once), and nothing
 * the cache does can leave the page waiting: its answer reaches the page whatever happened to
 * the cache's entry in between (issue 26 §6: a cache entry removed while its GET was on its way
 * was never answered, and the page stayed on its loading line although the GET answered 200).
 */
export function useApplication(formId: string, enabled = true): ApplicationLoad {
  const [attempt, setAttempt] = useState(0);
  const [load, setLoad] = useState<{ key: string; load: Load } | undefined>(undefined);
  // One request per attempt, even where effects run twice (StrictMode in development).
  const asked = useRef<{ key: string; request: Promise<Application | null> } | undefined>(
    undefined,
  );
  const key = `${formId}#${attempt}`;
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    if (asked.current?.key !== key) {
      asked.current = { key, request: takeEarly(formId) ?? getApplication(formId) };
    }
    const { request } = asked.current;
    request.then(
      (data) => current && setLoad({ key, load: { status: 'success', data } }),
      (error: unknown) =>
        current &&
        setLoad({
          key,
          load: {
            status: 'error',
            error: error instanceof Error ? error : new Error(String(error)),
          },
        }),
    );
    return () => {
      current = false;
    };
  }, [enabled, formId, key]);
  const refetch = useCallback(() => setAttempt((n) => n + 1), []);
  // Only the answer to this form's latest request counts (another form's, or a failed one
  // before Try again, is not this visit's).
  const state: Load = load?.key === key ? load.load : { status: 'pending' };
  if (state.status === 'success') {
    const { data } = state;
    return { data, isSuccess: true, isPending: false, isError: false, error: null, refetch };
  }
  const error = state.status === 'error' ? state.error : null;
  const failed = state.status === 'error';
  return { data: undefined, isSuccess: false, isPending: !failed, isError: failed, error, refetch };
}

/**
 * PUT applications/:formId. A stale `baseRevision` is refused with 409, whose ApiError's body
 * carries the server's `application`.
 */
export function saveApplication(
  formId: string,
  save: SaveApplicationRequest,
  options: { keepalive?: boolean } = {},
): Promise<SavedApplication> {
  return apiFetch<SavedApplication>(path(formId), {
    method: 'PUT',
    body: save,
    keepalive: options.keepalive,
    redirectOnUnauthenticated: false,
  });
}

/** The server's copy of the application a 409 carries, when it carries one. */
export function conflictingApplication(error: unknown): Application | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const body = error.body as { application?: unknown } | null;
  const application = body?.application;
  return application && typeof application === 'object' ? (application as Application) : undefined;
}

/**
 * POST applications/:formId/files (multipart: `pointer`, then `file`) through XMLHttpRequest,
 * whose upload reports progress (fetch's does not). `onProgress(sent, total)` follows the
 * bytes; a refusal rejects with an ApiError (the schema's message in `errors[pointer]`), no
 * answer with a NetworkError, `signal` aborts.
 */
export function uploadApplicationFile(
  formId: string,
  pointer: string,
  file: Blob,
  name: string,
  onProgress: (sent: number, total: number) => void,
  signal?: AbortSignal,
): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${API_BASE}/${path(formId)}/files`);
    request.withCredentials = true;
    request.setRequestHeader('accept', 'application/json');
    for (const [header, value] of Object.entries(csrfHeaders())) {
      request.setRequestHeader(header, value);
    }
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    request.onload = () => {
      let parsed: unknown;
      try {
        parsed = request.responseText ? (JSON.parse(request.responseText) as unknown) : undefined;
      } catch {
        parsed = undefined;
      }
      if (request.status >= 200 && request.status < 300) resolve(parsed as UploadedFile);
      else reject(new ApiError(request.status, isErrorBody(parsed) ? parsed : null));
    };
    request.onerror = () => reject(new NetworkError(new Error('upload failed')));
    request.ontimeout = request.onerror;
    request.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    const body = new FormData();
    // The pointer first: the server knows the question before the bytes arrive.
    body.append('pointer', pointer);
    body.append('file', file, name);
    request.send(body);
  });
}

/** DELETE applications/:formId/files?pointer=…: the held file of that question is removed. */
export async function deleteApplicationFile(formId: string, pointer: string): Promise<void> {
  await apiFetch<void>(`${path(formId)}/files?${new URLSearchParams({ pointer }).toString()}`, {
    method: 'DELETE',
    redirectOnUnauthenticated: false,
  });
}
