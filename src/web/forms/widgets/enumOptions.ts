import { deepEquals } from '@rjsf/utils';

/**
 * Whether `ui:enumDisabled` lists an option's value: compared by content, since an object or
 * array written in the uiSchema is never the schema's own object.
 */
export function isEnumDisabled(enumDisabled: unknown, value: unknown): boolean {
  return Array.isArray(enumDisabled) && enumDisabled.some((item) => deepEquals(item, value));
}
