import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { ROLES, type Role } from '../../shared/api/auth';
import { badRequest } from '../errors';
import type { MultipartForm } from '../storage/multipartForm';

/** A person's KYC basics as a form sends them (names differ between calls). */
export interface PersonFields {
  firstName?: string;
  lastName?: string;
  phoneNumber?: string;
}

const MAX_NAME = 100;

/** A phone number in international form (`+12125550142`); national US numbers are accepted too. */
export function normalizePhone(value: string): string | null {
  const parsed = parsePhoneNumberFromString(value, 'US');
  return parsed?.isValid() ? parsed.number : null;
}

/**
 * Reads first name, last name and phone from a form under the given field names, checking each
 * one given; with `required` all three must be present. Throws a 400 listing every bad field.
 */
export function readPersonFields(
  form: MultipartForm,
  names: { firstName: string; lastName: string; phoneNumber: string },
  options: { required: boolean },
): PersonFields {
  const errors: Record<string, string> = {};
  const result: PersonFields = {};
  for (const key of ['firstName', 'lastName'] as const) {
    const value = form.field(names[key]);
    if (!value) {
      if (options.required) errors[names[key]] = 'Required';
    } else if (value.length > MAX_NAME) {
      errors[names[key]] = `At most ${MAX_NAME} characters`;
    } else {
      result[key] = value;
    }
  }
  const phone = form.field(names.phoneNumber);
  if (!phone) {
    if (options.required) errors[names.phoneNumber] = 'Required';
  } else {
    const normalized = normalizePhone(phone);
    if (normalized) result.phoneNumber = normalized;
    else errors[names.phoneNumber] = 'Invalid phone number';
  }
  if (Object.keys(errors).length > 0) {
    throw badRequest('Please correct the highlighted fields.', errors);
  }
  return result;
}

/** Checks a list of role names against ROLES (DECISIONS: Administrator, Trader, Viewer). */
export function readRoles(values: string[], field = 'role'): Role[] {
  const unknown = values.filter((value) => !(ROLES as readonly string[]).includes(value));
  if (unknown.length > 0) {
    throw badRequest(`Unknown role. Roles are ${ROLES.join(', ')}.`, { [field]: 'Unknown role' });
  }
  return [...new Set(values as Role[])];
}
