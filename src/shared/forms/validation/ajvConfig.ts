/**
 * THE Ajv configuration, used everywhere a form is validated: compiled at start on Node (server,
 * CLI, tests) and ahead of time for the browser (vitePlugin.ts). Passed to rjsf's
 * `customizeValidator` / `compileSchemaValidatorsCode`, which add ajv-formats and rjsf's own
 * formats on top of rjsf's defaults (`allErrors: true`, which ajv-errors needs).
 */
import type { Ajv, Options, Vocabulary } from 'ajv';
import ajvErrors from 'ajv-errors';
import * as nextModule from 'ajv/dist/vocabularies/next.js';
import type { CustomValidatorOptionsType } from '@rjsf/validator-ajv8';
import { containsOnTheList } from './containsKeyword';
import { addProjectKeywords } from './keywords';

export const AJV_OPTIONS: Options = {
  allErrors: true,
  strict: true,
  // if/then sub-schemas name properties their parent declares; Ajv cannot see that in strict types.
  strictTypes: false,
  strictRequired: false,
  // Strict mode's other checks stay on (unknown keywords, ignored `additionalItems`…), but
  // three of its refusals are of forms JSON Schema allows and the engine handles, set here
  // deliberately rather than surfaced to a compliance team in Ajv's words:
  // - an open tuple (`items` as an array without `additionalItems`: later items are free);
  strictTuples: false,
  // - a property that also matches a `patternProperties` pattern (both rules apply);
  allowMatchingProperties: true,
  // - OpenAPI's `discriminator` beside a `oneOf` of objects told apart by a `const` property.
  discriminator: true,
  // No schema copies on each error: only our translation reads errors (message, keyword, params,
  // instancePath), and the copies made the generated code bigger.
  verbose: false,
  // Each $defs entry (address, phone, yes/no…) is one function instead of a copy at every use:
  // the browser's validator module shrank 327 → 211 kB and its main function 252 → 94 kB, which
  // is what the JavaScript engine compiles on the first call.
  inlineRefs: false,
  // `minContains`/`maxContains` are enforced only with Ajv's `next` option: without it Ajv knows
  // the keywords (the vocabulary below) but its `contains` counts one match and ignores them, so
  // a form saying "exactly one control person" took two (issue 37 §2).
  next: true,
};

/** A CommonJS module whose default export may arrive wrapped once more, as interop goes. */
const NEXT_VOCABULARY: Vocabulary = (() => {
  const loaded = nextModule as unknown as { default: Vocabulary | { default: Vocabulary } };
  return Array.isArray(loaded.default)
    ? loaded.default
    : (loaded.default as { default: Vocabulary }).default;
})();

/** Adds ajv-errors and the project's `x-…` keywords. */
function extendAjv(ajv: Ajv): Ajv {
  // draft 2019-09's `dependentRequired` and `dependentSchemas` (and `minContains`), beside
  // draft-07's `dependencies`, as Ajv2019 adds them.
  ajv.addVocabulary(NEXT_VOCABULARY);
  containsOnTheList(ajv);
  addProjectKeywords(ajv);
  return ajvErrors(ajv);
}

/** The options for rjsf's `customizeValidator` and `compileSchemaValidatorsCode`. */
export const RJSF_VALIDATOR_OPTIONS: CustomValidatorOptionsType = {
  ajvOptionsOverrides: AJV_OPTIONS,
  extenderFn: extendAjv,
};
