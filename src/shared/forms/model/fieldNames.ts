/**
 * The custom fields a uiSchema may name with `ui:field` (a field draws a whole answer, an array
 * of objects for instance, where a widget draws one input). The React registry
 * (src/web/forms/fields/registry.ts) implements exactly these; `forms check` rejects any other.
 */
export const FIELD_NAMES = [
  // An array of objects as a table of rows, each added and edited in a dialog holding the form
  // named by `ui:options.form` (the affiliated persons).
  'dialogList',
] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
