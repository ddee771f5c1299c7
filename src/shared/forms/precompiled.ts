/**
 * Browser side: registers a form's precompiled validator functions (generated ahead of time by
 * the Vite plugin; see standalone.ts). Importing `virtual:form-validators/<form-id>` calls this.
 */
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import type { RJSFSchema } from '@rjsf/utils';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import { loadForm } from './loadForm';
import type { FormId } from './types';
import { registerFormValidator, type FormValidator } from './validators';

export function registerPrecompiled(formId: FormId, validateFns: ValidatorFunctions): void {
  const validator = createPrecompiledValidator(
    validateFns,
    loadForm(formId).schema as RJSFSchema,
  ) as unknown as FormValidator;
  registerFormValidator(formId, validator);
}
