/**
 * The custom widgets a uiSchema may name with `ui:widget`. The React registry
 * (src/web/forms/widgets) implements exactly these; the schema contract test checks every
 * uiSchema against this list.
 */
export const WIDGET_NAMES = [
  'ssn',
  'phone',
  'date',
  'country',
  'region',
  'imageUpload',
  'pdfUpload',
  'agreement',
  'yesNo',
  'lei',
  // rjsf's own widgets, also allowed by name
  'text',
  'email',
  'textarea',
  'select',
  'radio',
  'checkbox',
  'updown',
  'hidden',
] as const;
export type WidgetName = (typeof WIDGET_NAMES)[number];
