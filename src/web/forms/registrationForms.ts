/**
 * The registration forms of the catalog (every form folder whose schema declares
 * `x-registration`), in the choice page's order, and each one's compiled form loaded on demand.
 * A new folder is a new registration kind: its choice, page and confirmation come from its schema.
 */
import { importForm, registrationForms } from 'virtual:forms';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';

/** One registration kind: its form id and what the pages show of it (`x-registration`). */
export type RegistrationKind = (typeof registrationForms)[number];

/** Every registration kind, lowest `x-registration.choice.order` first. */
export const registrationKinds: readonly RegistrationKind[] = registrationForms;

/** The registration kind of a form id; undefined when no registration form has that id. */
export function registrationKind(formId: string): RegistrationKind | undefined {
  return registrationKinds.find((kind) => kind.id === formId);
}

const loading = new Map<string, Promise<CompiledForm | undefined>>();

/** The compiled form of a registration kind, loaded once (the same promise every time). */
export function loadRegistrationForm(formId: string): Promise<CompiledForm | undefined> {
  let promise = loading.get(formId);
  if (!promise) {
    promise = registrationKind(formId) ? importForm(formId) : Promise.resolve(undefined);
    loading.set(formId, promise);
  }
  return promise;
}
