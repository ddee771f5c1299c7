/**
 * The custom widgets a uiSchema may name with `ui:widget`. The React registry
 * (src/web/forms/widgets) implements exactly these; the schema contract test checks every
 * uiSchema against this list.
 */
export const WIDGET_NAMES = [
  'ssn',
  'phone',
  // The spec's MM/DD/YYYY text date (with the schema's `x-date` rule); `date` is rjsf's.
  'usDate',
  'country',
  'region',
  'imageUpload',
  'pdfUpload',
  'agreement',
  'yesNo',
  'lei',
  // rjsf's own widgets, also allowed by name, each with rjsf's meaning (`date` answers
  // YYYY-MM-DD, `time` HH:MM:SS, `datetime` an ISO date-time; `select` and `checkboxes` also take
  // an array of unique choices)
  'text',
  'email',
  'password',
  'textarea',
  'select',
  'radio',
  'checkbox',
  'checkboxes',
  'updown',
  'range',
  'hidden',
  'date',
  'time',
  'datetime',
  // rjsf's names for its other date pickers (the playground's date sample): the same answers
  // (YYYY-MM-DD, an ISO date-time), drawn by the same widgets as `date` and `datetime`.
  'alt-date',
  'alt-datetime',
] as const;
export type WidgetName = (typeof WIDGET_NAMES)[number];
