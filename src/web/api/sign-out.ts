import { useMutation } from '@tanstack/react-query';
import { apiFetch } from './client';

/** POST auth/signout (no payload). */
export function signOut(): Promise<void> {
  return apiFetch<void>('auth/signout', { method: 'POST' });
}

export function useSignOut() {
  return useMutation({ mutationFn: signOut });
}
