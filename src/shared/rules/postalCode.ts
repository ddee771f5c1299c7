/**
 * Postal codes (spec access §5, §9): for the United States digits only and exactly five. Other
 * countries' codes are only required. The schema states the same rule with if/then; the contract
 * test checks that the two agree.
 */

type PostalCodeProblem = 'digits' | 'length';

const US_POSTAL_CODE_LENGTH = 5;

/** Why `postalCode` does not suit `country` (two-letter code), or null when it does. */
export function postalCodeProblem(country: string, postalCode: string): PostalCodeProblem | null {
  if (country !== 'US') return null;
  // A ZIP+4 is numbers, a hyphen aside: what it gets wrong is the length (issue 38 §1).
  if (/^\d{5}-\d{4}$/.test(postalCode)) return 'length';
  if (!/^\d*$/.test(postalCode)) return 'digits';
  if (postalCode.length !== US_POSTAL_CODE_LENGTH) return 'length';
  return null;
}
