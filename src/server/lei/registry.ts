/**
 * The LEI registry client: GLEIF's API (`LEI_API_URL`, JSON:API), answers cached in PostgreSQL so
 * several server instances share them (db/leiRecords.ts: found records a day, unknown LEIs an
 * hour).
 */
import type { LeiRecord } from '../../shared/api/lei';

const TIMEOUT_MS = 8000;

/** Why the registry gave no answer: it is busy (429) or down/unreadable. */
export class RegistryError extends Error {
  constructor(
    readonly reason: 'busy' | 'unavailable',
    readonly detail: string,
  ) {
    super(`LEI registry ${reason}: ${detail}`);
    this.name = 'RegistryError';
  }
}

interface GleifAddress {
  addressLines?: unknown;
  city?: unknown;
  region?: unknown;
  country?: unknown;
  postalCode?: unknown;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value.trim() : null;

/** A GLEIF `lei-records/{lei}` document as the record the wizard fills in, or null if unusable. */
function fromGleif(lei: string, body: unknown): LeiRecord | null {
  const entity = (body as { data?: { attributes?: { entity?: Record<string, unknown> } } })?.data
    ?.attributes?.entity;
  const legalName = text((entity?.legalName as { name?: unknown } | undefined)?.name);
  const address = (entity?.headquartersAddress ?? entity?.legalAddress) as GleifAddress | undefined;
  const country = text(address?.country)?.toUpperCase() ?? null;
  if (!legalName || !address || !country) return null;
  const region = text(address.region);
  return {
    lei,
    legalName,
    addressLines: Array.isArray(address.addressLines)
      ? address.addressLines.map(text).filter((line): line is string => line !== null)
      : [],
    city: text(address.city) ?? '',
    // GLEIF gives ISO 3166-2 (`US-CA`); the portal's regions are the part after the country.
    region: region ? region.replace(new RegExp(`^${country}-`, 'i'), '') : null,
    postalCode: text(address.postalCode),
    country,
    isNonUs: country !== 'US',
  };
}

/** Asks the registry; null when it has no such LEI. Throws RegistryError otherwise. */
export async function fetchLeiRecord(apiUrl: string, lei: string): Promise<LeiRecord | null> {
  let response: Response;
  try {
    response = await fetch(`${apiUrl}/lei-records/${encodeURIComponent(lei)}`, {
      headers: { accept: 'application/vnd.api+json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new RegistryError('unavailable', (error as Error).name);
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (response.status === 429) {
    await response.body?.cancel();
    throw new RegistryError('busy', 'HTTP 429');
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new RegistryError('unavailable', `HTTP ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new RegistryError('unavailable', 'unreadable answer');
  }
  const record = fromGleif(lei, body);
  if (!record) throw new RegistryError('unavailable', 'answer without a name or address');
  return record;
}
