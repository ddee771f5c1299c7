/**
 * Client-side session helpers shared by logout and the registration success paths: where a user
 * goes after signing in, and what is wiped when the session ends.
 */
import type { QueryClient } from '@tanstack/react-query';
import { hasRegistered, type User } from '../../shared/api/auth';
import { SIGN_IN_NOTICE_PARAM, type SignInNotice } from '../../shared/api/signInNotices';
import { currentUserQueryKey } from '../api/get-current-user';
import { clearDrafts } from '../forms/draftStorage';
/** The staff console, a separate server-rendered site: always reached by a full page load. */
export const ADMIN_SITE_URL = '/clearing/admin';
/** The exchange's profile page (outside /clearing: full page load). */
export const PROFILE_URL = '/exchange/dashboard/profile';

const sessionEndHandlers = new Set<() => void>();

/**
 * Runs `handler` when the client session ends, for state kept outside the query cache (the live
 * market stream). Returns the function that removes it. Registered by the module that owns the
 * state, so the sign-in bundle need not import it.
 */
export function onClientSessionEnd(handler: () => void): () => void {
  sessionEndHandlers.add(handler);
  return () => sessionEndHandlers.delete(handler);
}

/** Forgets everything cached for the signed-in user and marks the session as signed out. */
export function endClientSession(queryClient: QueryClient): void {
  for (const handler of [...sessionEndHandlers]) handler();
  clearDrafts();
  // Mark the user signed out in place, so mounted observers (the header) update at once.
  queryClient.setQueryData(currentUserQueryKey, null);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserQueryKey[0] });
  queryClient.getMutationCache().clear();
}

/**
 * A `redirect` parameter is followed only when it is a path of this app (under /clearing/, not
 * protocol-relative, not the logout page); the answer is router-relative (basename stripped).
 */
export function safeRedirectPath(redirect: string | null): string | null {
  if (!redirect || !redirect.startsWith('/clearing/')) return null;
  if (/[\\\s]/.test(redirect) || redirect.includes('//')) return null;
  const path = redirect.slice('/clearing'.length);
  if (path === '/logout' || path.startsWith('/logout?') || path.startsWith('/signin')) return null;
  return path;
}

/** Where a non-staff user lands after signing in (access §4). */
export function postSignInPath(user: User, redirect: string | null): string {
  if (!hasRegistered(user)) return '/registration';
  return safeRedirectPath(redirect) ?? '/home';
}

/**
 * `/signin?notice=<key>` (router-relative), with an optional path to come back to. The sign-in
 * page shows the portal's text for the key, never text from the address bar.
 */
export function signInPath(notice: SignInNotice, redirect?: string): string {
  const query = new URLSearchParams({ [SIGN_IN_NOTICE_PARAM]: notice });
  if (redirect) query.set('redirect', redirect);
  return `/signin?${query.toString()}`;
}
