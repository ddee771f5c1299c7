/** Legal Entity Identifiers (ISO 17442): 20 alphanumeric characters, check digits mod 97 = 1. */

export const LEI_PROBLEMS = ['characters', 'length', 'checksum'] as const;
type LeiProblem = (typeof LEI_PROBLEMS)[number];

export const LEI_LENGTH = 20;

/** The ISO 7064 mod 97-10 remainder of an alphanumeric string (A=10 … Z=35). */
function mod97(text: string): number {
  let remainder = 0;
  for (const character of text) {
    const value = parseInt(character, 36);
    remainder = (value < 10 ? remainder * 10 + value : remainder * 100 + value) % 97;
  }
  return remainder;
}

/** Why `value` is not a well-formed LEI, or null when it is (a valid check is not an issued LEI). */
export function leiProblem(value: string): LeiProblem | null {
  if (!/^[A-Za-z0-9]*$/.test(value)) return 'characters';
  if (value.length !== LEI_LENGTH) return 'length';
  return mod97(value.toUpperCase()) === 1 ? null : 'checksum';
}
