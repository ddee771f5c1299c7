import { useMutation } from '@tanstack/react-query';
import type { SignupRequest } from '../../shared/api/auth';
import { apiFetch } from './client';

/** POST auth/signup. */
function signUp(body: SignupRequest): Promise<void> {
  return apiFetch<void>('auth/signup', { method: 'POST', body });
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
