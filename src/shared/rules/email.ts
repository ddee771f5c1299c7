/** Email rules of the access pages (spec access §5). */

const EMAIL_MESSAGES = {
  required: 'Enter email',
  invalid: 'Invalid email',
  invalidCharacters: 'Contains invalid charaters', // spelling as the specification has it
} as const;

// Practical address shape (the HTML living standard's): local part, @, dotted domain labels.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
// Characters that never belong in an address the portal accepts (spaces, quotes, angle brackets, …).
const INVALID_CHARACTERS = /[\s"(),:;<>[\]\\]/;

function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL.test(email);
}

/** The message for an email field, or null when acceptable. `strict` adds the character check. */
export function emailError(email: string, options: { strict?: boolean } = {}): string | null {
  const value = email.trim();
  if (!value) return EMAIL_MESSAGES.required;
  if (options.strict && INVALID_CHARACTERS.test(value)) return EMAIL_MESSAGES.invalidCharacters;
  if (!isValidEmail(value)) return EMAIL_MESSAGES.invalid;
  return null;
}
