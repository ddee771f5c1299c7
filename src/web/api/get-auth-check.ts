import { queryOptions } from '@tanstack/react-query';
import type { AuthCheck } from '../../shared/api/auth';
import { apiFetch } from './client';

/** GET auth/signin: Authenticated (with the staff flag) or NotAuthenticated; failure = signed out. */
export async function getAuthCheck(): Promise<AuthCheck> {
  try {
    return await apiFetch<AuthCheck>('auth/signin');
  } catch {
    return { status: 'NotAuthenticated' };
  }
}

export const authCheckQueryOptions = () =>
  queryOptions({ queryKey: ['auth-check'], queryFn: getAuthCheck });
