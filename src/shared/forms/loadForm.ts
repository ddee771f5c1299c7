import { bundleForm, type BundledForm, type CommonSchemas, type FormFiles } from './bundleForm';
import { COMMON_SCHEMAS, FORM_SOURCES } from './formSources';
import { FORM_IDS, type FormId } from './types';

export interface LoadedForm extends BundledForm {
  formId: FormId;
}

/** The files forms are bundled from: each form's three files and the common schemas. */
export interface FormSources {
  forms: Partial<Record<FormId, FormFiles>>;
  commons: CommonSchemas;
}

const cache = new Map<FormId, LoadedForm>();
let sources: FormSources = { forms: FORM_SOURCES, commons: COMMON_SCHEMAS };

/**
 * Node tooling only (the `forms` CLI): bundle forms from these files instead of the ones imported
 * at build time, e.g. the schema files on disk as a compliance officer just saved them. Forms
 * loaded before are forgotten; validators must be compiled again (`compileFormValidators`).
 */
export function setFormSources(next: FormSources): void {
  sources = next;
  cache.clear();
}

export function isFormId(value: string): value is FormId {
  return (FORM_IDS as readonly string[]).includes(value);
}

/** The form ids whose schema files exist. */
export function availableFormIds(): FormId[] {
  return FORM_IDS.filter((formId) => sources.forms[formId]);
}

/**
 * A form's bundled schema, uiSchema, example answers and content hash. The objects are shared
 * and stable (rjsf re-renders less with stable schema objects): never mutate them.
 */
export function loadForm(formId: FormId): LoadedForm {
  let form = cache.get(formId);
  if (!form) {
    const files = sources.forms[formId];
    if (!files) throw new Error(`Unknown form: ${formId}`);
    form = { formId, ...bundleForm(files, sources.commons) };
    cache.set(formId, form);
  }
  return form;
}
