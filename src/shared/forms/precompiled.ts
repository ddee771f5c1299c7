/**
 * Browser side: registers a form's precompiled validator functions (generated ahead of time by
 * the Vite plugin; see standalone.ts). Importing `virtual:form-validators/<form-id>` calls this.
 */
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import type { RJSFSchema } from '@rjsf/utils';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import { loadForm } from './loadForm';
import type { FormId } from './types';
import { validateAnswers } from './validateAnswers';
import { registerFormValidator, type FormValidator } from './validators';

const warmUps = new Map<FormId, Promise<boolean>>();

export function registerPrecompiled(formId: FormId, validateFns: ValidatorFunctions): void {
  const validator = createPrecompiledValidator(
    validateFns,
    loadForm(formId).schema as RJSFSchema,
  ) as unknown as FormValidator;
  registerFormValidator(formId, validator);
  warmUps.set(formId, warmUpWhenIdle(formId));
}

/**
 * The first validation of filled answers costs 10–30 ms more than later ones (`npm run bench`):
 * not Ajv, which compiled ahead of time, but the JavaScript engine compiling the validator
 * functions on first call and the rules' one-off set-up (Unicode-class regexes, date and phone
 * parsing tables). Validating the form's example answers once while the browser is idle after
 * load pays that before the user's first blur does.
 */
function warmUpWhenIdle(formId: FormId): Promise<boolean> {
  return new Promise((resolve) => {
    const run = () => {
      try {
        validateAnswers(formId, loadForm(formId).example);
        validateAnswers(formId, {});
        resolve(true);
      } catch {
        // Nothing warmed: the same call fails, and is reported, where it matters.
        resolve(false);
      }
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 0);
  });
}

/**
 * True once the form's precompiled validator has been warmed up; false if it has none or the
 * warm-up validation threw.
 */
export function validatorWarmedUp(formId: FormId): Promise<boolean> {
  return warmUps.get(formId) ?? Promise.resolve(false);
}
