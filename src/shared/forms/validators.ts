/**
 * Where each form's rjsf validator comes from. The browser registers precompiled validators
 * (`import 'virtual:form-validators/<form-id>'`, see precompiled.ts); Node (server, CLI, tests)
 * compiles at start (`compileFormValidators()` in compile.ts). Either way the same Ajv
 * configuration made them (ajvConfig.ts).
 */
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import type { FormId } from './types';

export type FormValidator = ValidatorType<Record<string, unknown>, RJSFSchema>;

const validators = new Map<FormId, FormValidator>();

export function registerFormValidator(formId: FormId, validator: FormValidator): void {
  validators.set(formId, validator);
}

/** The registered validator of a form; throws when none was registered. */
export function formValidator(formId: FormId): FormValidator {
  const validator = validators.get(formId);
  if (!validator) {
    throw new Error(
      `No validator for form ${formId}: import 'virtual:form-validators/${formId}' (browser) ` +
        `or call compileFormValidators() (Node) first`,
    );
  }
  return validator;
}
