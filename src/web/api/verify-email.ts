import { useMutation } from '@tanstack/react-query';
import type { VerifyEmailBody } from '../../shared/api/auth';
import { apiFetch } from './client';

/** POST auth/verify-email: sets the first password of a new user. */
function verifyEmail(body: VerifyEmailBody): Promise<void> {
  return apiFetch<void>('auth/verify-email', { method: 'POST', body });
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail });
}
