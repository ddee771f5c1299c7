import { apiFetch } from './client';
import type { RegistrationResult } from './submit-individual-registration';

/** POST registration/business: the wizard's multipart prompt+value payload built by `toPayload`. */
export function submitBusinessRegistration(payload: FormData): Promise<RegistrationResult> {
  return apiFetch<RegistrationResult>('registration/business', { method: 'POST', body: payload });
}
