/**
 * An expired session met by a call the page makes in the background (the LEI lookup, the e-sign
 * consent, autosave, uploads): instead of the full-page sign-in redirect (business §2.7), which
 * would throw away a half-filled form, the page asks the user to sign in again in a dialog
 * (`SessionExpiredDialog`, mounted once by `AppProviders`) and the call is sent again. Cancelling
 * leaves the page as it is.
 *
 * Callers make their call with `redirectOnUnauthenticated: false` and wrap it:
 * `await withSessionRenewal(() => apiFetch(…, { redirectOnUnauthenticated: false }))`, or await
 * `requireFreshSession()` themselves after a 401.
 */
import { ApiError, redirectToSignIn } from '../api/client';

/** The user closed the sign-in dialog without signing in: the call was not sent again. */
export class SessionRenewalDeclined extends Error {
  constructor() {
    super('You are signed out. Your answers are kept on this page: sign in again to continue.');
    this.name = 'SessionRenewalDeclined';
  }
}

interface Pending {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

let pending: Pending | null = null;
let hosts = 0;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** The dialog's side of the exchange: whether it is asked for, and how it ended. */
export const sessionRenewal = {
  /** Whether a sign-in is being asked for now. */
  requested: (): boolean => pending !== null,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** The dialog is mounted and can ask; returns the function that unmounts it. */
  attach(): () => void {
    hosts++;
    return () => {
      hosts--;
    };
  },
  /** Signed in again: every waiting call is sent again. */
  renewed(): void {
    pending?.resolve();
    pending = null;
    notify();
  },
  /** Cancelled: every waiting call fails with {@link SessionRenewalDeclined}. */
  declined(): void {
    pending?.reject(new SessionRenewalDeclined());
    pending = null;
    notify();
  },
};

/**
 * Resolves once the user has signed in again in the dialog; rejects with
 * {@link SessionRenewalDeclined} when they cancel. Calls waiting together share one dialog.
 * Where no dialog is mounted (a page outside the app's providers) it falls back to the sign-in
 * redirect.
 */
export function requireFreshSession(): Promise<void> {
  if (pending) return pending.promise;
  if (hosts === 0) {
    redirectToSignIn();
    return Promise.reject(new SessionRenewalDeclined());
  }
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  pending = { promise, resolve, reject };
  notify();
  return promise;
}

/** Whether an error is the server's "not signed in" (401). */
export function isUnauthenticated(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/**
 * Runs `call` (made with `redirectOnUnauthenticated: false`); on a 401 asks the user to sign in
 * again and runs it again, as often as the server answers 401 to a fresh session. Any other
 * failure, and a cancelled sign-in ({@link SessionRenewalDeclined}), reaches the caller.
 */
export async function withSessionRenewal<T>(call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!isUnauthenticated(error)) throw error;
      await requireFreshSession();
    }
  }
}
