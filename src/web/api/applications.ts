/**
 * The applicant's application on the server (issue 17): answers saved as they are given, files
 * uploaded when chosen, opened on any device. One function per call of the applications API.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
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

/**
 * The application as the server holds it now, for a page that opens a form on it. A copy an
 * earlier visit left in the cache is never taken: gcTime 0 removes it only on a timer after that
 * visit's page unmounted, and leaving the form and coming straight back (a link out, then Back)
 * can mount the page before the timer ran. The form would open on that visit's answers and step
 * (saves made since missing), and its session is made once, so the fresh answer came too late.
 */
export function useApplication(formId: string, enabled = true): ApplicationLoad {
  const query = useQuery({
    ...applicationQueryOptions(formId),
    enabled,
    refetchOnMount: 'always',
  });
  // Fetched (or failed) since this page mounted; a failed refetch leaves the old copy as data.
  const current = query.isFetchedAfterMount;
  const failed = query.isError || (current && query.isRefetchError);
  const loaded = current && query.isSuccess && !failed;
  const { error, refetch } = query;
  if (loaded) {
    return { data: query.data, isSuccess: true, isPending: false, isError: false, error, refetch };
  }
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
