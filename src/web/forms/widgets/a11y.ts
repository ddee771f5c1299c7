import { descriptionId, errorId, helpId, type RJSFSchema, type UiSchema } from '@rjsf/utils';

/**
 * The ids an input's `aria-describedby` should name: its errors (rendered by the
 * FieldErrorTemplate under `errorId(id)`), description, help and any helper text. Only ids that
 * are rendered are named, so assistive technology never follows a dangling reference.
 */
export function describedBy(
  id: string,
  {
    rawErrors,
    schema,
    uiSchema,
    extra = [],
  }: {
    rawErrors?: string[];
    schema?: RJSFSchema;
    uiSchema?: UiSchema;
    extra?: Array<string | undefined | false>;
  },
): string | undefined {
  const ids = [
    rawErrors && rawErrors.length > 0 ? errorId(id) : undefined,
    schema?.description ? descriptionId(id) : undefined,
    uiSchema?.['ui:help'] ? helpId(id) : undefined,
    ...extra,
  ].filter((part): part is string => typeof part === 'string' && part.length > 0);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** A string option from `ui:options`, with a UI-chrome default. */
export function stringOption(options: Record<string, unknown>, key: string, fallback: string) {
  const value = options[key];
  return typeof value === 'string' && value.length > 0 ? value : fallback;
}
