import type { LeiRecord } from '../../shared/api/lei';
import { withSessionRenewal } from '../app/sessionExpiry';
import { apiFetch } from './client';

/**
 * GET lei-records/{lei}: the registry's legal name and headquarters address for an LEI (our
 * server asks GLEIF and caches). Rejects with an ApiError: 400 (check digits, the schema's
 * message), 404 (unknown LEI), 429, 502/503 (registry unavailable). A lookup made while the
 * business form is half filled: an expired session asks to sign in again in place, then looks
 * up again (SessionRenewalDeclined when the user cancels).
 */
export function getLeiRecord(lei: string, signal?: AbortSignal): Promise<LeiRecord> {
  return withSessionRenewal(() =>
    apiFetch<LeiRecord>(`lei-records/${encodeURIComponent(lei.trim())}`, {
      signal,
      redirectOnUnauthenticated: false,
    }),
  );
}
