/**
 * Phone numbers in international format (spec business §3.8, §5.2), checked with libphonenumber-js.
 * Returns the reason a number fails; the wording of each reason lives in the schema (`x-phone`).
 */
import {
  parsePhoneNumberFromString,
  parsePhoneNumberWithError,
  ParseError,
  type CountryCode,
} from 'libphonenumber-js';

export const PHONE_PROBLEMS = [
  'international',
  'tooShort',
  'tooLong',
  'invalidCharacters',
  'invalidCountry',
  'notPossible',
] as const;
type PhoneProblem = (typeof PHONE_PROBLEMS)[number];

/** Longest text the phone parser accepts (libphonenumber's own limit). */
const PHONE_MAX_TEXT_LENGTH = 250;
const MAX_EXTENSION_DIGITS = 20;

const EXTENSION = /\s*(?:ext\.?|extension|x|#)\s*(\d+)$/i;
const NUMBER_CHARACTERS = /^\+[\d\s().-]*$/;

const PARSE_REASONS: Record<string, PhoneProblem> = {
  INVALID_COUNTRY: 'invalidCountry',
  TOO_SHORT: 'tooShort',
  TOO_LONG: 'tooLong',
  NOT_A_NUMBER: 'invalidCharacters',
  INVALID_LENGTH: 'notPossible',
};

/** Why `value` is not an acceptable international phone number, or null when it is. */
export function phoneProblem(value: string): PhoneProblem | null {
  const text = value.trim();
  if (!text.startsWith('+')) return 'international';
  if (text.length > PHONE_MAX_TEXT_LENGTH) return 'tooLong';
  const extension = EXTENSION.exec(text);
  if (extension && (extension[1] ?? '').length > MAX_EXTENSION_DIGITS) return 'tooLong';
  const main = extension ? text.slice(0, extension.index) : text;
  if (!NUMBER_CHARACTERS.test(main)) return 'invalidCharacters';
  if (main.replace(/\D/g, '').length < 2) return 'tooShort';
  try {
    // Valid, not only possible: '+1 999 555 0100' has the length of a US number but no such
    // area code (issue 38 §1). The message stays the spec's 'Phone number is not valid'.
    return parsePhoneNumberWithError(text).isValid() ? null : 'notPossible';
  } catch (error) {
    if (error instanceof ParseError) return PARSE_REASONS[error.message] ?? 'notPossible';
    throw error;
  }
}

/**
 * The fix for a national number that got a '+' in front (the phone field prepends it, business
 * §4): when `value`, read as international, is no valid number but its digits are a valid number
 * of `country` (the form's default, the United States), that number in E.164 (`+3035550123` →
 * `+13035550123`). Null when the value is valid as it is, or its digits are no such number.
 */
export function internationalSuggestion(value: string, country: CountryCode): string | null {
  const text = value.trim();
  const digits = text.replace(/\D/g, '');
  if (digits === '') return null;
  if (parsePhoneNumberFromString(`+${digits}`)?.isValid()) return null;
  const number = parsePhoneNumberFromString(digits, country);
  return number?.isValid() && number.number !== `+${digits}` ? number.number : null;
}
