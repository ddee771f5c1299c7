/** Modules the Vite plugin (scripts/formValidatorsPlugin.ts) provides to the browser. */
declare module 'virtual:forms/*' {
  import type { CompiledForm } from './compiledForm';
  /** The form of schemas/<form-id>/, with its precompiled validator. */
  const form: CompiledForm;
  export default form;
}

declare module 'virtual:forms' {
  import type { CompiledForm } from './compiledForm';
  /** Every form folder under schemas/, by id. */
  export const formIds: string[];
  /** Each form's schema title (its id when untitled). */
  export const formTitles: Record<string, string>;
  /** The registration forms (root `x-registration`), in the choice page's order. */
  export const registrationForms: ({ id: string } & Pick<
    import('./schemaTypes').RegistrationAnnotation,
    'choice' | 'page' | 'submitted'
  >)[];
  /** The form's module, loaded on demand; undefined for an unknown id. */
  export function importForm(id: string): Promise<CompiledForm | undefined>;
}
