import type { LeiRecord } from '../../shared/api/lei';
import { apiFetch } from './client';

/**
 * GET lei-records/{lei}: the registry's legal name and headquarters address for an LEI (our
 * server asks GLEIF and caches). Rejects with an ApiError: 400 (check digits, the schema's
 * message), 404 (unknown LEI), 429, 502/503 (registry unavailable).
 */
export function getLeiRecord(lei: string, signal?: AbortSignal): Promise<LeiRecord> {
  return apiFetch<LeiRecord>(`lei-records/${encodeURIComponent(lei.trim())}`, {
    signal,
    // A background call inside a half-filled form: an ended sign-in is noted under the field
    // (the lookup failed), never a redirect away from the answers.
    redirectOnUnauthenticated: false,
  });
}
