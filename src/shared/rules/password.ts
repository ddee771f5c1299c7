/**
 * Password rules of the new-password pages (spec access §5, §9), with what docs/decisions.md,
 * Passwords and sessions adds: at least 8 characters (ASVS 6.2.1), not one of the most common
 * passwords (ASVS 6.2.4), and not made of the account's own words (ASVS 6.2.11, issue 27). Every
 * refusal reads the specification's 'Password is too weak'; the last one says why in one more
 * sentence.
 */
import { firm } from '../config/firm';
import { passwordForms, passwordSkeleton } from './passwordForms';

export type PasswordStrength = 'weak' | 'medium' | 'strong';

/** ASVS 6.2.1: at least 8 characters. */
const PASSWORD_MIN_LENGTH = 8;
/**
 * The longest password accepted (ASVS 6.2.9 asks for at least 64). Every byte up to it is hashed:
 * scrypt takes input of any length, so nothing is cut off; the bound only caps the work per request.
 */
export const PASSWORD_MAX_LENGTH = 1024;

/**
 * The character classes of a password as it is hashed (NFKC, passwords.ts): fullwidth `Ｐａｓｓ１`
 * has the classes of `Pass1`, and so meets the rules, and the common-password check, as that does.
 */
const classes = (password: string) => {
  const hashed = password.normalize('NFKC');
  return {
    lower: /[a-z]/.test(hashed),
    upper: /[A-Z]/.test(hashed),
    digit: /\d/.test(hashed),
    special: /[!@#$%^&*]/.test(hashed),
  };
};

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
  context: PasswordContext = {},
): PasswordStrength {
  if (newPasswordError(password, commonPasswords, context)) return 'weak';
  const { lower, upper, digit, special } = classes(password);
  return lower && upper && digit && special ? 'strong' : 'medium';
}

/**
 * The rule a new password must meet, in words, shown under the field from the start and under
 * 'Password is too weak' (whose wording the specification fixes, and which alone never says
 * what would be strong enough: issue 38 §4).
 */
export const PASSWORD_RULE =
  'Use at least 8 characters, with at least two of: lowercase letters, uppercase letters, digits. Not a common password, nor one made of your name or email address.';

/** The new-password messages, exactly as the specification words them. */
export const PASSWORD_MESSAGES = {
  required: 'Enter password',
  tooWeak: 'Password is too weak',
  ownWords:
    'Password is too weak. It is made mostly of your email address, your name, or the name of your firm or of this service.',
  confirmRequired: 'Confirm password',
  mismatch: 'Passwords must match',
  wrong: 'Password is wrong',
  signinRequired: 'Please enter a password',
} as const;

/**
 * Whether a password is on the list of common passwords, in any of the forms that read as it
 * (passwordForms.ts): the list is lower case, so `Password1` counts as the `password1` every
 * cracking list starts with, and `P@ssw0rd2026`, `Welcome2026!` and `Passwоrd1` (a Cyrillic о)
 * as `password` and `welcome`.
 */
function isCommonPassword(password: string, commonPasswords: ReadonlySet<string>): boolean {
  return passwordForms(password).some((form) => commonPasswords.has(form));
}

/** Too short, too long or too simple, whatever the list says. */
function tooWeak(password: string): boolean {
  return (
    password.length < PASSWORD_MIN_LENGTH ||
    password.length > PASSWORD_MAX_LENGTH ||
    !passesWeakRule(password)
  );
}

/** What the account is called, as far as the page or route setting the password knows it. */
export interface PasswordContext {
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  /** The person's organisation, where they belong to one. */
  organizationName?: string | undefined;
}

/** Fewer letters than this left once the account's words are taken out: "mostly" those words. */
const OWN_LETTERS_NEEDED = 4;

/** The letters of a text as it reads (accents off, lookalikes Latin, lower case). */
const letters = (text: string) => passwordSkeleton(text).replace(/[^\p{L}]/gu, '');

/** The words a password must not be made of: the account's, the firm's and the service's. */
function ownWords(context: PasswordContext): string[] {
  const email = context.email?.trim() ?? '';
  const localPart = email.includes('@') ? email.slice(0, email.lastIndexOf('@')) : email;
  const texts = [
    email,
    localPart,
    ...localPart.split(/[^\p{L}]+/u),
    context.firstName,
    context.lastName,
    context.organizationName,
    ...(context.organizationName ?? '').split(/\s+/),
    firm.product,
    firm.displayName,
    ...`${firm.displayName} ${firm.serviceName}`.split(/\s+/),
  ];
  const words = texts.map((text) => letters(text ?? '')).filter((word) => word.length >= 3);
  // Longest first, so an email is taken out whole before its parts.
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

/**
 * Whether a password is, or mostly is, the account's own words (ASVS 6.2.11): with case, digits
 * and symbols set aside, and each of those words taken out, fewer than four letters remain, in
 * any of the forms that read as it (passwordForms.ts: lookalike letters, leetspeak). So
 * `carol1@sec.example` for carol1@sec.example, `Northstar2026!`, `N0rthst4r-Cl34ring!` and
 * `Carol-Smith-1` (for Carol Smith) are refused; `Carol-Lantern-48` keeps a word of its own.
 */
export function madeOfOwnWords(password: string, context: PasswordContext): boolean {
  const words = ownWords(context);
  return passwordForms(password).some((form) => {
    let rest = letters(form);
    if (rest.length === 0) return false;
    for (const word of words) rest = rest.split(word).join('');
    return rest.length < OWN_LETTERS_NEEDED;
  });
}

/**
 * The message for a new password, or null when acceptable. Without `commonPasswords` (the
 * browser before the list has loaded) the common-list check is left to the server. `context`
 * names the account, so a password made of its own words is refused with the reason.
 */
export function newPasswordError(
  password: string,
  commonPasswords?: ReadonlySet<string>,
  context: PasswordContext = {},
): string | null {
  if (!password) return PASSWORD_MESSAGES.required;
  if (tooWeak(password)) return PASSWORD_MESSAGES.tooWeak;
  // Before the list: `Carol1-2026!` is refused for being Carol's name (saying so), though the
  // list has `carol` too.
  if (madeOfOwnWords(password, context)) return PASSWORD_MESSAGES.ownWords;
  if (commonPasswords && isCommonPassword(password, commonPasswords)) {
    return PASSWORD_MESSAGES.tooWeak;
  }
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
