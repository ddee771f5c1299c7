import { AsYouType } from 'libphonenumber-js';

/** 'NNN-NN-NNNN' as far as typed: digits only, hyphens inserted, at most 9 digits (11 characters). */
export function formatSsn(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, 9);
  if (digits.length <= 3) return digits;
  if (digits.length <= 5) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}

/**
 * 'MM/DD/YYYY' as far as typed. A slash is added when a third month or day digit arrives (not
 * after the second, so backspace over a slash is not undone); a typed slash ends a one-digit
 * month or day early, since the validator accepts 1/5/2024.
 */
export function formatDate(raw: string): string {
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
}

/**
 * International phone formatting as typed and on paste: a '+' is prepended when missing and the
 * digits are grouped by libphonenumber-js. Characters other than digits are dropped, so the
 * answer is '+' and digits only.
 */
export function formatPhone(raw: string): FormattedPhone {
  const digits = raw.replace(/\D/g, '');
  if (digits.length === 0) {
    return { text: raw.trim() === '+' ? '+' : '', value: undefined, country: undefined };
  }
  const typer = new AsYouType();
  const text = typer.input(`+${digits}`);
  return { text, value: `+${digits}`, country: typer.getCountry() };
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
