/**
 * THE Ajv configuration, used everywhere a form is validated: compiled at start on Node (server,
 * CLI, tests) and ahead of time for the browser (vitePlugin.ts). Passed to rjsf's
 * `customizeValidator` / `compileSchemaValidatorsCode`, which add ajv-formats and rjsf's own
 * formats on top of rjsf's defaults (`allErrors: true`, which ajv-errors needs).
 */
import type { Ajv, Options } from 'ajv';
import ajvErrors from 'ajv-errors';
import type { CustomValidatorOptionsType } from '@rjsf/validator-ajv8';
import { addProjectKeywords } from './keywords';

export const AJV_OPTIONS: Options = {
  allErrors: true,
  strict: true,
  // if/then sub-schemas name properties their parent declares; Ajv cannot see that in strict types.
  strictTypes: false,
  strictRequired: false,
  // No schema copies on each error: only our translation reads errors (message, keyword, params,
  // instancePath), and the copies made the generated code bigger.
  verbose: false,
  // Each $defs entry (address, phone, yes/no…) is one function instead of a copy at every use:
  // the browser's validator module shrank 327 → 211 kB and its main function 252 → 94 kB, which
  // is what the JavaScript engine compiles on the first call.
  inlineRefs: false,
};

/** Adds ajv-errors and the project's `x-…` keywords. */
export function extendAjv(ajv: Ajv): Ajv {
  addProjectKeywords(ajv);
  return ajvErrors(ajv);
}

/** The options for rjsf's `customizeValidator` and `compileSchemaValidatorsCode`. */
export const RJSF_VALIDATOR_OPTIONS: CustomValidatorOptionsType = {
  ajvOptionsOverrides: AJV_OPTIONS,
  extenderFn: extendAjv,
};
