/**
 * Country and region names for the staff console: answers store two-letter country codes and
 * region codes (docs/decisions.md, The shape of answers); staff read names. Reference data is the
 * `country-region-data` package, the same the form's choices come from.
 */
import { allCountries } from 'country-region-data';

const countries = new Map<string, { name: string; regions: Map<string, string> }>(
  allCountries.map(([name, code, regions]) => [
    code,
    {
      name,
      // A region without a usable code is stored by its name (docs/decisions.md, Names and values),
      // so both resolve.
      regions: new Map<string, string>(
        regions.flatMap(([regionName, short]): [string, string][] =>
          short && short !== 'undefined'
            ? [
                [short, regionName],
                [regionName, regionName],
              ]
            : [[regionName, regionName]],
        ),
      ),
    },
  ]),
);

/** A country by its name too: a row already named keeps finding its regions. */
const countriesByName = new Map([...countries.values()].map((country) => [country.name, country]));

/** `US` → `United States`; anything else unchanged. */
export function countryName(code: string): string {
  return countries.get(code)?.name ?? code;
}

/** `NY` of `US` (or of `United States`) → `New York`; unknown regions (or countries) unchanged. */
export function regionName(country: string | undefined, region: string): string {
  const found = country ? (countries.get(country) ?? countriesByName.get(country)) : undefined;
  return found?.regions.get(region) || region;
}
