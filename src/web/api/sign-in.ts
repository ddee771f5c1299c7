import type { SigninRequest, SigninResult } from '../../shared/api/auth';
import { apiFetch } from './client';

/** POST auth/signin: TwoFactorRequired, or AuthComplete with the user. */
export function signIn(body: SigninRequest): Promise<SigninResult> {
  return apiFetch<SigninResult>('auth/signin', { method: 'POST', body });
}
