/**
 * Node side (server, CLI, tests): compiles form validators at start with the one Ajv
 * configuration. The browser never imports this module (it would need `unsafe-eval`).
 */
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { RJSF_VALIDATOR_OPTIONS } from './ajvConfig';
import { availableFormIds, loadForm } from './loadForm';
import type { FormId } from './types';
import { registerFormValidator, type FormValidator } from './validators';

/** A compiled rjsf validator for `formId`; compiling the root schema up front surfaces errors. */
export function compileFormValidator(formId: FormId): FormValidator {
  const validator = customizeValidator<Record<string, unknown>, RJSFSchema>(RJSF_VALIDATOR_OPTIONS);
  // rawValidation compiles (and caches) the root schema; rjsf reports compile errors, not throws.
  const { validationError } = validator.rawValidation(loadForm(formId).schema as RJSFSchema, {});
  if (validationError) throw new Error(`Form ${formId}: ${validationError.message}`);
  return validator;
}

/** Compiles and registers the validators of every available form (or of `formIds`). */
export function compileFormValidators(formIds: FormId[] = availableFormIds()): void {
  for (const formId of formIds) registerFormValidator(formId, compileFormValidator(formId));
}
