/**
 * GET applications/:formId, apart from the rest of the applications API: the registration
 * routes start it beside the page's code (`loadApplicationEarly`), and the sign-in page's bundle
 * then carries this much and no more.
 */
import type { ApplicationResponse, ApplicationView } from '../../shared/api/applications';
import { apiFetch } from './client';

/** GET applications/:formId: the caller's application of that form, or null. */
export async function getApplication(formId: string): Promise<ApplicationView | null> {
  const body = await apiFetch<ApplicationResponse>(`applications/${encodeURIComponent(formId)}`, {
    // A background call: an expired session is said on the page, never a redirect away.
    redirectOnUnauthenticated: false,
  });
  return body?.application ?? null;
}

/** A GET started while the page's code was still loading, taken by the page's first query. */
const early = new Map<
  string,
  { promise: Promise<ApplicationView | null>; at: number; failed: boolean }
>();
const EARLY_FRESH_MS = 10_000;

/**
 * Starts loading the application beside the page's own chunks (a fresh page otherwise waits for
 * them, then mounts, then asks: about 200 ms of a resume, `npm run bench -- resume`). One already
 * on its way or answered, and fresh, stands (the app asked as it started, then the route as it
 * loads): a second GET would answer the same.
 */
export function loadApplicationEarly(formId: string): void {
  const started = early.get(formId);
  if (started && !started.failed && Date.now() - started.at < EARLY_FRESH_MS) return;
  const promise = getApplication(formId);
  const entry = { promise, at: Date.now(), failed: false };
  // The page's query reports a failure, when it takes this one; a later start asks again.
  promise.catch(() => (entry.failed = true));
  early.set(formId, entry);
}

export function takeEarly(formId: string): Promise<ApplicationView | null> | undefined {
  const started = early.get(formId);
  early.delete(formId);
  return started && Date.now() - started.at < EARLY_FRESH_MS ? started.promise : undefined;
}
