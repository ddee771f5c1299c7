/**
 * GET /exchange/api/web/lei-records/{lei}: what the LEI registry (GLEIF) says of a legal entity,
 * reduced to what the business wizard fills in (spec business §4, §7.1). Address of the entity's
 * headquarters (its legal address when the registry gives no headquarters).
 */
export interface LeiRecord {
  /** The LEI, upper case. */
  lei: string;
  legalName: string;
  addressLines: string[];
  city: string;
  /** The region's code without the country (`CA` for GLEIF's `US-CA`); null when none. */
  region: string | null;
  postalCode: string | null;
  /** Two-letter country code. */
  country: string;
  /** The headquarters are outside the United States (the wizard sets its non-US flag). */
  isNonUs: boolean;
}

export const leiRecordPath = (lei: string) =>
  `/exchange/api/web/lei-records/${encodeURIComponent(lei)}`;
