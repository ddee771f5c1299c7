import type { EsignConsentRequest, EsignConsentState } from '../../shared/api/esignConsent';
import { apiFetch } from './client';
import { withSessionRenewal } from '../app/sessionExpiry';

/**
 * GET esign-consent: the consent's version in force and whether the user gave it. Asked while a
 * form is open: an expired session asks to sign in again there (never leaves the page).
 */
export function getEsignConsent(): Promise<EsignConsentState> {
  return withSessionRenewal(() =>
    apiFetch<EsignConsentState>('esign-consent', { redirectOnUnauthenticated: false }),
  );
}

/** POST esign-consent: the applicant confirms the version the dialog showed (409 if changed). */
export function giveEsignConsent(version: string): Promise<EsignConsentState> {
  return withSessionRenewal(() =>
    apiFetch<EsignConsentState>('esign-consent', {
      method: 'POST',
      body: { version } satisfies EsignConsentRequest,
      redirectOnUnauthenticated: false,
    }),
  );
}
