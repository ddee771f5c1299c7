import { useMutation } from '@tanstack/react-query';
import type { ResetBody } from '../../shared/api/auth';
import { apiFetch } from './client';

/** POST auth/password/reset. */
function resetPassword(body: ResetBody): Promise<void> {
  return apiFetch<void>('auth/password/reset', { method: 'POST', body });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
