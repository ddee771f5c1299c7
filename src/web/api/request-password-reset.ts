import { useMutation } from '@tanstack/react-query';
import type { ResetRequestBody } from '../../shared/api/auth';
import { apiFetch } from './client';

/** POST auth/password/reset/request. */
function requestPasswordReset(body: ResetRequestBody): Promise<void> {
  return apiFetch<void>('auth/password/reset/request', { method: 'POST', body });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
