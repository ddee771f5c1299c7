import { useMutation, useQuery } from '@tanstack/react-query';
import type { LinkCheck, VerifyEmailBody, VerifyEmailCheckBody } from '../../shared/api/auth';
import { apiFetch } from './client';

/** POST auth/verify-email: sets the first password of a new user. */
function verifyEmail(body: VerifyEmailBody): Promise<void> {
  return apiFetch<void>('auth/verify-email', { method: 'POST', body });
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail });
}

/**
 * POST auth/verify-email/check: whether the link can still set the password, asked as the page
 * opens (it uses nothing up). Asked once: a failed check leaves the form to say it on submit.
 */
export function useVerifyLinkCheck(body: VerifyEmailCheckBody) {
  return useQuery({
    queryKey: ['verify-email-check', body.token, body.email],
    queryFn: () => apiFetch<LinkCheck>('auth/verify-email/check', { method: 'POST', body }),
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}
