/**
 * The LEI lookup (business §7.1 item 2; DECISIONS "Paths"): the browser asks our server at
 * `GET /exchange/api/web/lei-records/{lei}`, which asks the LEI registry (GLEIF's API shape) and
 * caches answers. The server answers this shape, read from the record's legal name and
 * headquarters address; a lookup that fails is a 4xx/5xx JSON error with `errorMessage`.
 */
export interface LeiRecord {
  /** The LEI looked up, upper case. */
  lei: string;
  /** `data.attributes.entity.legalName.name`. */
  legalName: string;
  /** The headquarters address. */
  address: LeiAddress;
  /** Whether the headquarters is outside the United States (`address.country` is not 'US'). */
  isNonUs: boolean;
}

export interface LeiAddress {
  lines: string[];
  city: string;
  /** ISO 3166-2 as the registry gives it ('US-CA'), when it gives one. */
  region?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2 ('US'). */
  country: string;
}

/** The path under the web API of the lookup of `lei`. */
export const leiRecordPath = (lei: string) => `lei-records/${encodeURIComponent(lei)}`;
