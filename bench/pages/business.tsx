/**
 * What the three Business Details pages share: the step's schema (the business form without the
 * user step's fields), its example answers with 50 affiliated persons, and the stock-rjsf
 * versions of schema and uiSchema for B1.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import businessForm from 'virtual:forms/business';
import type { Answers, JsonSchema } from '../../src/shared/forms/model/schemaTypes';
import { isFileReference } from '../../src/shared/forms/model/types';

export const BUSINESS_FORM_ID = 'business';
const form = businessForm;
export const PERSONS = 50;

/** The user step's fields (section userInfo), left out of the Business Details step. */
const USER_FIELDS = Object.entries(form.schema.properties ?? {})
  .filter(([, schema]) => (schema as JsonSchema)['x-section'] === 'userInfo')
  .map(([key]) => key);

export const stepSchema = (() => {
  const copy = structuredClone(form.schema) as JsonSchema & {
    properties: Record<string, unknown>;
    required?: string[];
  };
  for (const key of USER_FIELDS) delete copy.properties[key];
  copy.required = copy.required?.filter((key) => !USER_FIELDS.includes(key));
  return copy;
})();

export const stepUiSchema = (() => {
  const copy = structuredClone(form.uiSchema) as Record<string, unknown>;
  for (const key of USER_FIELDS) delete copy[key];
  copy['ui:order'] = (copy['ui:order'] as string[]).filter((key) => !USER_FIELDS.includes(key));
  copy['ui:options'] = { ...(copy['ui:options'] as object | undefined), label: false };
  return copy as UiSchema;
})();

/** The example answers of the step, with 50 affiliated persons (the example's, renamed). */
export function businessAnswers(): Answers {
  const answers = structuredClone(form.example) as Answers;
  for (const key of USER_FIELDS) delete answers[key];
  // Files are not part of this figure: file answers ({name, type, size}) are left out.
  for (const [key, value] of Object.entries(answers)) {
    if (isFileReference(value)) delete answers[key];
  }
  const examples = answers.affiliatedPersons as Answers[];
  answers.affiliatedPersons = Array.from({ length: PERSONS }, (_, i) => ({
    ...examples[i % examples.length],
    lastName: `${String(examples[i % examples.length]!.lastName)} ${i + 1}`,
  }));
  return answers;
}

/** Widget names stock rjsf knows; the engine's own (phone, pdfUpload, lei, …) are dropped. */
const STOCK_WIDGETS = new Set([
  'text',
  'email',
  'textarea',
  'select',
  'radio',
  'checkbox',
  'updown',
]);

/** B1: file answers as data-URL strings (rjsf's own file widget). */
export function stockSchema(schema: JsonSchema): RJSFSchema {
  const copy = structuredClone(schema) as RJSFSchema & { $defs: Record<string, RJSFSchema> };
  for (const [name, definition] of Object.entries(copy.$defs)) {
    if ((definition as JsonSchema)['x-file']) {
      copy.$defs[name] = { type: 'string', format: 'data-url' };
    }
  }
  return copy;
}

/** B1: no engine widgets or fields (stock rjsf draws the persons inline, as rjsf does). */
export function stockUiSchema(ui: unknown): UiSchema {
  if (Array.isArray(ui) || typeof ui !== 'object' || ui === null) return ui as UiSchema;
  const out: UiSchema = {};
  for (const [key, value] of Object.entries(ui)) {
    if (key === 'ui:widget' && !STOCK_WIDGETS.has(String(value))) continue;
    if (key === 'ui:field') continue;
    out[key] = key.startsWith('ui:') ? value : stockUiSchema(value);
  }
  return out;
}
