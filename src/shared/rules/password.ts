/**
 * Password rules of the new-password pages (spec access §5, §9), with what DECISIONS "Security"
 * adds: at least 8 characters (ASVS 6.2.1) and not one of the most common passwords (ASVS 6.2.4).
 * Every refusal reads the specification's 'Password is too weak'.
 */

export type PasswordStrength = 'weak' | 'medium' | 'strong';

/** ASVS 6.2.1: at least 8 characters. */
const PASSWORD_MIN_LENGTH = 8;
/**
 * The longest password accepted (ASVS 6.2.9 asks for at least 64). Every byte up to it is hashed:
 * scrypt takes input of any length, so nothing is cut off; the bound only caps the work per request.
 */
export const PASSWORD_MAX_LENGTH = 1024;

const classes = (password: string) => ({
  lower: /[a-z]/.test(password),
  upper: /[A-Z]/.test(password),
  digit: /\d/.test(password),
  special: /[!@#$%^&*]/.test(password),
});

/** The specification's weak rule: at least 6 characters and two of lowercase, uppercase, digit. */
export function passesWeakRule(password: string): boolean {
  const { lower, upper, digit } = classes(password);
  return password.length >= 6 && [lower, upper, digit].filter(Boolean).length >= 2;
}

/**
 * Strong: 8+ characters with lowercase, uppercase, digit and one of !@#$%^&*. Medium: accepted
 * but not strong. Weak: refused (so the meter never calls a password it will refuse "medium").
 */
export function passwordStrength(
  password: string,
  commonPasswords?: ReadonlySet<string>,
): PasswordStrength {
  if (tooWeak(password, commonPasswords)) return 'weak';
  const { lower, upper, digit, special } = classes(password);
  return lower && upper && digit && special ? 'strong' : 'medium';
}

/** The new-password messages, exactly as the specification words them. */
export const PASSWORD_MESSAGES = {
  required: 'Enter password',
  tooWeak: 'Password is too weak',
  confirmRequired: 'Confirm password',
  mismatch: 'Passwords must match',
  wrong: 'Password is wrong',
  signinRequired: 'Please enter a password',
} as const;

/**
 * Whether a password is on the list of common passwords. The list is lower case; so is the
 * comparison, so `Password1` counts as the `password1` every cracking list starts with.
 */
function isCommonPassword(password: string, commonPasswords: ReadonlySet<string>): boolean {
  return commonPasswords.has(password.toLowerCase());
}

function tooWeak(password: string, commonPasswords: ReadonlySet<string> | undefined): boolean {
  return (
    password.length < PASSWORD_MIN_LENGTH ||
    password.length > PASSWORD_MAX_LENGTH ||
    !passesWeakRule(password) ||
    (commonPasswords !== undefined && isCommonPassword(password, commonPasswords))
  );
}

/**
 * The message for a new password, or null when acceptable. Without `commonPasswords` (the
 * browser before the list has loaded) the common-list check is left to the server.
 */
export function newPasswordError(
  password: string,
  commonPasswords?: ReadonlySet<string>,
): string | null {
  if (!password) return PASSWORD_MESSAGES.required;
  if (tooWeak(password, commonPasswords)) return PASSWORD_MESSAGES.tooWeak;
  return null;
}

export function confirmPasswordError(password: string, confirm: string): string | null {
  if (!confirm) return PASSWORD_MESSAGES.confirmRequired;
  if (confirm !== password) return PASSWORD_MESSAGES.mismatch;
  return null;
}

let commonList: Promise<ReadonlySet<string>> | undefined;

/**
 * The ~49,000 most common passwords of zxcvbn-ts's common dictionary (from leaked password
 * corpora, ranked), as a set. Loaded on first use: in the browser it is a chunk of its own that
 * only the new-password pages fetch.
 */
export function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  commonList ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common']),
  );
  return commonList;
}
