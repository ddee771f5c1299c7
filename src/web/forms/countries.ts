import { allCountries } from 'country-region-data';

/** The default country of address and country questions (spec: United States). */
export const DEFAULT_COUNTRY = 'US';

export interface Choice {
  value: string;
  label: string;
  /** Shown but not choosable (`ui:enumDisabled`). */
  disabled?: boolean;
}

/** Every country of country-region-data, by two-letter code. */
export const COUNTRY_CHOICES: readonly Choice[] = allCountries.map(([name, code]) => ({
  value: code,
  label: name,
}));

const regionsByCountry = new Map<string, readonly Choice[]>(
  allCountries.map(([, code, regions]) => [
    code,
    regions.map(([name, short]) => ({
      // Some regions carry the text 'undefined' (or nothing) as their code: keep those by name.
      value: short && short !== 'undefined' ? short : name,
      label: name,
    })),
  ]),
);

/** The regions of a country (code, or name when it has none); empty for an unknown country. */
export function regionChoices(country: string | undefined): readonly Choice[] {
  return regionsByCountry.get(country ?? DEFAULT_COUNTRY) ?? [];
}
