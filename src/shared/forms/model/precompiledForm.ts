/**
 * Browser side: a compiled form from its bundled files and the validator functions generated
 * ahead of time (`virtual:forms/<form-id>`, see standalone.ts and scripts/formValidatorsPlugin.ts),
 * so the browser never compiles a schema and the page's CSP needs no `unsafe-eval`.
 */
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import type { RJSFSchema } from '@rjsf/utils';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import type AJV8PrecompiledValidator from '@rjsf/validator-ajv8/lib/precompiledValidator.js';
import type { BundledForm } from './bundleForm';
import { validateAnswers } from '../validation/validateAnswers';
import { assembleForm, type CompiledForm } from './compiledForm';
import type { FormValidator } from './schemaTypes';

const warmUps = new WeakMap<CompiledForm, Promise<boolean>>();

/**
 * The form with its precompiled validator; `nested` are the forms it draws inside it.
 * @public imported by the generated `virtual:forms/<form-id>` modules (standalone.ts), which knip cannot see
 */
export function precompiledForm(
  id: string,
  bundled: BundledForm,
  validateFns: ValidatorFunctions,
  nested: Readonly<Record<string, CompiledForm>> = {},
  options: { warmUp?: boolean } = {},
): CompiledForm {
  const precompiled = createPrecompiledValidator(validateFns, bundled.schema as RJSFSchema);
  keepsFoundFunctions(precompiled as AJV8PrecompiledValidator);
  const validator = precompiled as unknown as FormValidator;
  const form = assembleForm(id, bundled, validator, nested);
  if (options.warmUp !== false) warmUps.set(form, warmUpWhenIdle(form));
  return form;
}

/**
 * rjsf's precompiled validator finds a schema's function by the hash of the schema's JSON, keys
 * sorted, computed again on every `isValid`: each `if` of the form and each option rjsf matches,
 * asked on every commit of an answer and in every field's render. In a trace of a pause in typing
 * on the individual form, `hashForSchema` took 4 of the 14 ms rjsf spent applying the change. A
 * schema object is never changed once built (rjsf copies to resolve), so its function is kept by
 * the object; a schema built at run time is hashed as before.
 */
function keepsFoundFunctions(validator: AJV8PrecompiledValidator): void {
  const find = validator.getValidator.bind(validator);
  const found = new WeakMap<object, ReturnType<typeof find>>();
  validator.getValidator = (schema) => {
    let validate = found.get(schema);
    if (!validate) {
      validate = find(schema);
      found.set(schema, validate);
    }
    return validate;
  };
}

/**
 * The first validation of filled answers costs 10–30 ms more than later ones (`npm run bench`):
 * not Ajv, which compiled ahead of time, but the JavaScript engine compiling the validator
 * functions on first call and the rules' one-off set-up (Unicode-class regexes, date and phone
 * parsing tables). Validating the form's example answers once while the browser is idle after
 * load pays that before the user's first blur does. So does the page's first Intl.NumberFormat:
 * rjsf's number field asks Intl for the locale's decimal separator as it draws, and the first ask
 * loads the locale's number data (16–25 ms of the business form's second step in Chromium traces).
 */
function warmUpWhenIdle(form: CompiledForm): Promise<boolean> {
  return new Promise((resolve) => {
    const run = () => {
      new Intl.NumberFormat(
        typeof navigator === 'undefined' ? undefined : navigator.languages,
      ).formatToParts(1.1);
      try {
        validateAnswers(form, form.example);
        validateAnswers(form, {});
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
export function validatorWarmedUp(form: CompiledForm): Promise<boolean> {
  return warmUps.get(form) ?? Promise.resolve(false);
}
