import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '../../shared/api/auth';
import { apiFetch } from './client';

export const currentUserQueryKey = ['current-user'] as const;

/**
 * The signed-in user, or null when signed out. Any failure of the check counts as signed out
 * (business §4 "Auth check"), and a 401 here never triggers the sign-in redirect.
 */
export async function getCurrentUser(): Promise<User | null> {
  try {
    return await apiFetch<User>('user', { redirectOnUnauthenticated: false });
  } catch {
    return null;
  }
}

export const currentUserQueryOptions = () =>
  queryOptions({ queryKey: currentUserQueryKey, queryFn: getCurrentUser });

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions());
}
