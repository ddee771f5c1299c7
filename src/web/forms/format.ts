import { AsYouType, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';

/** 'NNN-NN-NNNN' as far as typed: digits only, hyphens inserted, at most 9 digits (11 characters). */
export function formatSsn(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, 9);
  if (digits.length <= 3) return digits;
  if (digits.length <= 5) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}

/**
 * 'MM/DD/YYYY' as far as typed, a year-first (ISO) date converted. A slash is added when a third month or day digit arrives (not
 * after the second, so backspace over a slash is not undone); a typed slash ends a one-digit
 * month or day early, since the validator accepts 1/5/2024.
 */
export function formatDate(raw: string): string {
  return isoDate(raw) ?? usDate(raw);
}

const ISO_DATE = /^\s*(\d{4})-(\d{2})-(\d{2})\s*$/;

/**
 * A date typed or pasted year first (ISO, '1988-04-15'), as MM/DD/YYYY once complete and as
 * 'YYYY-MM-DD' so far while typed; null when the text is not year first. Year first means: no
 * slash, and the first two digits are 19 or 20, which no month can be.
 */
function isoDate(raw: string): string | null {
  const complete = ISO_DATE.exec(raw);
  if (complete) {
    const [, year = '', month = '', day = ''] = complete;
    return `${month}/${day}/${year}`;
  }
  if (raw.includes('/')) return null;
  const digits = raw.replace(/\D/g, '').slice(0, 8);
  if (!/^(19|20)/.test(digits)) return null;
  if (digits.length === 8) return `${digits.slice(4, 6)}/${digits.slice(6)}/${digits.slice(0, 4)}`;
  return [digits.slice(0, 4), digits.slice(4, 6), digits.slice(6)].filter(Boolean).join('-');
}

function usDate(raw: string): string {
  const parts = ['', '', ''];
  let part = 0;
  for (const ch of raw.replace(/[^\d/]/g, '')) {
    const current = parts[part] ?? '';
    if (ch === '/') {
      if (part < 2 && current.length > 0) part += 1;
      continue;
    }
    if (part < 2 && current.length === 2) part += 1;
    if (part === 2 && (parts[2] ?? '').length === 4) break;
    parts[part] = (parts[part] ?? '') + ch;
  }
  return parts.slice(0, part + 1).join('/');
}

export interface FormattedPhone {
  /** What the input shows: '+1 212 555 0142'. */
  text: string;
  /** What the answers hold: '+12125550142', or undefined when nothing was typed. */
  value: string | undefined;
  /** Two-letter code of the country the number belongs to, once it is known. */
  country: string | undefined;
  /** The region a number typed without '+' was read in. */
  readIn?: CountryCode;
}

/**
 * A phone number formatted as typed and on paste, one behaviour wherever a phone number is asked
 * (both registrations, the dialog, the invitation page); its answer is '+' and the digits.
 * - Typed with a '+': international, grouped by libphonenumber-js (business §4).
 * - Typed without one, with a `region` (the applicant's: the address country in the form, else
 *   the form's default, the United States): read as a number of that region, the way people
 *   write their own number ('(312) 555-0100' → '+13125550100'). Digits that are no number of
 *   that region stay so (the rule then says 'Phone number is not valid'); they are never re-read
 *   as another country's ('3125550100' as +31, the Netherlands).
 * - Typed without one and no region: the spec's '+' prepended.
 */
export function formatPhone(raw: string, region?: CountryCode): FormattedPhone {
  const digits = raw.replace(/\D/g, '');
  if (digits.length === 0) {
    return { text: raw.trim() === '+' ? '+' : '', value: undefined, country: undefined };
  }
  if (region && !raw.trim().startsWith('+')) {
    // Shown as typed, grouped in the region's style ('(312) 555-0100'): read back it is
    // international. Converting as typed would read the next keystroke as international.
    const typer = new AsYouType(region);
    const text = typer.input(digits);
    const number = typer.getNumber();
    return {
      text,
      value: number?.number ?? `+${getCountryCallingCode(region)}${digits}`,
      country: number?.isValid() ? number.country : undefined,
      readIn: region,
    };
  }
  const typer = new AsYouType();
  const text = typer.input(`+${digits}`);
  return { text, value: `+${digits}`, country: typer.getCountry() };
}

/** The E.164 number grouped for reading: '+12125550142' → '+1 212 555 0142'. */
export function formatInternational(value: string): string {
  return formatPhone(value).text;
}

/** '12.3 KB' style size for file rows. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let size = bytes / 1024;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return `${size.toFixed(size < 10 ? 1 : 0)} ${units[unit]}`;
}
