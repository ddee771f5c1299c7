/**
 * The shared name-character check (spec business §5.1): a person's name holds letters (any script,
 * with their accents), spaces, apostrophes, hyphens, periods and commas, and at least one letter.
 */

export const NAME_PROBLEMS = ['invalidCharacters'] as const;
type NameProblem = (typeof NAME_PROBLEMS)[number];

const NAME = /^[\p{L}\p{M}' .,’-]+$/u;
const LETTER = /\p{L}/u;

/** Why `value` is not acceptable as a name, or null when it is. */
export function nameProblem(value: string): NameProblem | null {
  return NAME.test(value) && LETTER.test(value) ? null : 'invalidCharacters';
}
