import { bundleForm, type BundledForm } from './bundleForm';
import { COMMON_SCHEMAS, FORM_SOURCES } from './formSources';
import { FORM_IDS, type FormId } from './types';

export interface LoadedForm extends BundledForm {
  formId: FormId;
}

const cache = new Map<FormId, LoadedForm>();

export function isFormId(value: string): value is FormId {
  return (FORM_IDS as readonly string[]).includes(value);
}

/** The form ids whose schema files exist. */
export function availableFormIds(): FormId[] {
  return FORM_IDS.filter((formId) => FORM_SOURCES[formId]);
}

/**
 * A form's bundled schema, uiSchema, example answers and content hash. The objects are shared
 * and stable (rjsf re-renders less with stable schema objects): never mutate them.
 */
export function loadForm(formId: FormId): LoadedForm {
  let form = cache.get(formId);
  if (!form) {
    const files = FORM_SOURCES[formId];
    if (!files) throw new Error(`Unknown form: ${formId}`);
    form = { formId, ...bundleForm(files, COMMON_SCHEMAS) };
    cache.set(formId, form);
  }
  return form;
}
