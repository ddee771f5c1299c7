import { apiFetch } from './client';

/** POST auth/signout (no payload). */
export function signOut(): Promise<void> {
  return apiFetch<void>('auth/signout', { method: 'POST' });
}
