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
    whenIdle(warmNumberFormat);
  }
  return promise;
}

/**
 * rjsf's NumberField asks Intl for the locale's decimal separator each time it draws a number
 * question, and a page's first Intl.NumberFormat loads the locale's number data: 16–25 ms of the
 * first draw of the business form's second step in Chromium traces, about 95 ms on a fresh page.
 * Made once while the form's code and the application load, the draw does not wait for it.
 */
function warmNumberFormat(): void {
  new Intl.NumberFormat(navigator.languages).formatToParts(1.1);
}

function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 2000 });
  else setTimeout(task, 0);
}
