/** Modules the Vite plugin (scripts/formValidatorsPlugin.ts) provides to the browser. */
declare module 'virtual:form-validators/*' {
  import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
  /** The form's precompiled validator functions; importing the module also registers them. */
  const validateFns: ValidatorFunctions;
  export default validateFns;
}
