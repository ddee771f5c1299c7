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
const early = new Map<string, { promise: Promise<ApplicationView | null>; at: number }>();
const EARLY_FRESH_MS = 10_000;

/**
 * Starts loading the application beside the page's own chunks (a fresh page otherwise waits for
 * them, then mounts, then asks: about 200 ms of a resume, `npm run bench -- resume`).
 */
export function loadApplicationEarly(formId: string): void {
  const promise = getApplication(formId);
  promise.catch(() => undefined); // the page's query reports a failure, when it takes this one
  early.set(formId, { promise, at: Date.now() });
}

export function takeEarly(formId: string): Promise<ApplicationView | null> | undefined {
  const started = early.get(formId);
  early.delete(formId);
  return started && Date.now() - started.at < EARLY_FRESH_MS ? started.promise : undefined;
}
