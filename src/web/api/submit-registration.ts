import type { User } from '../../shared/api/auth';
import { apiFetch } from './client';

interface RegistrationResult {
  registrationId: string;
  user: User;
}

/**
 * POST registration/<form-id>, for every registration form: the multipart prompt+value payload
 * built by `toPayload`.
 */
export function submitRegistration(formId: string, payload: FormData): Promise<RegistrationResult> {
  return apiFetch<RegistrationResult>(`registration/${encodeURIComponent(formId)}`, {
    method: 'POST',
    body: payload,
  });
}

/** The signed documents attached to a submission, fetched from /assets/pdfs by URL. */
export async function fetchSignedDocuments(urls: string[]): Promise<Record<string, Blob>> {
  const entries = await Promise.all(
    urls.map(async (url) => {
      const response = await fetch(url, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`Could not load ${url.split('/').pop()}.`);
      return [url, await response.blob()] as const;
    }),
  );
  return Object.fromEntries(entries);
}
