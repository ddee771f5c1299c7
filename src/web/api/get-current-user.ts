import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '../../shared/api/auth';
import { apiFetch } from './client';
import { getAuthCheck } from './get-auth-check';

export const currentUserQueryKey = ['current-user'] as const;

/**
 * The signed-in user, or null when signed out. The sign-in check comes first: it answers
 * NotAuthenticated with 200, so a signed-out page logs no failed request in the browser console
 * (business §4 "Auth check"); `user` is asked only for a session. Any failure of either counts as
 * signed out, and a 401 here never triggers the sign-in redirect.
 */
export async function getCurrentUser(): Promise<User | null> {
  try {
    const check = await getAuthCheck();
    if (check.status !== 'Authenticated') return null;
    return await apiFetch<User>('user', { redirectOnUnauthenticated: false });
  } catch {
    return null;
  }
}

const currentUserQueryOptions = () =>
  queryOptions({ queryKey: currentUserQueryKey, queryFn: getCurrentUser });

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions());
}
