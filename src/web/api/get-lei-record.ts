import { leiRecordPath, type LeiRecord } from '../../shared/api/lei';
import { apiFetch } from './client';

/**
 * GET lei-records/{lei}: the legal name and headquarters address of an LEI (our server asks the
 * LEI registry and caches its answers). Throws an ApiError when the LEI is unknown or the
 * registry cannot be reached; the caller keeps the form usable either way.
 */
export function getLeiRecord(lei: string, signal?: AbortSignal): Promise<LeiRecord> {
  return apiFetch<LeiRecord>(leiRecordPath(lei), { signal });
}
