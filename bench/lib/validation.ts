/**
 * Validation on Node with the validator the server uses (compiled at start by
 * compileFormValidators, the project's one Ajv configuration with ajv-errors), against plain Ajv
 * without ajv-errors on the same schema (same formats and rule keywords, `errorMessage` ignored).
 */
import { performance } from 'node:perf_hooks';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { RJSFSchema } from '@rjsf/utils';
import { AJV_OPTIONS } from '../../src/shared/forms/ajvConfig';
import { compileFormValidators } from '../../src/shared/forms/compile';
import { addProjectKeywords } from '../../src/shared/forms/keywords';
import { loadForm } from '../../src/shared/forms/loadForm';
import type { Answers } from '../../src/shared/forms/schemaTypes';
import { validateAnswers } from '../../src/shared/forms/validateAnswers';
import { formValidator } from '../../src/shared/forms/validators';

const REPEATS = 1000;

function once(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function repeated(run: () => unknown): number {
  for (let i = 0; i < 50; i++) run();
  const start = performance.now();
  for (let i = 0; i < REPEATS; i++) run();
  return (performance.now() - start) / REPEATS;
}

export interface NodeValidation {
  compileMs: number;
  firstValid: number;
  repeatedValid: number;
  repeatedBlank: number;
  rawValid: number;
  rawBlank: number;
  plainValid: number;
  plainBlank: number;
  blankErrors: number;
}

export function nodeValidation(): NodeValidation {
  const form = loadForm('individual');
  const schema = form.schema as RJSFSchema;
  const valid = structuredClone(form.example) as Answers;
  const blank: Answers = {};
  const compileMs = once(() => compileFormValidators(['individual']));
  const validator = formValidator('individual');
  const firstValid = once(() => validateAnswers('individual', valid));
  const check = validateAnswers('individual', valid);
  if (!check.valid) throw new Error(`example answers invalid: ${JSON.stringify(check.errors)}`);

  const ajv = new Ajv({ ...AJV_OPTIONS, strict: false });
  addFormats(ajv);
  addProjectKeywords(ajv);
  const plain = ajv.compile(schema);

  return {
    compileMs,
    firstValid,
    repeatedValid: repeated(() => validateAnswers('individual', valid)),
    repeatedBlank: repeated(() => validateAnswers('individual', blank)),
    rawValid: repeated(() => validator.rawValidation<ErrorObject>(schema, valid)),
    rawBlank: repeated(() => validator.rawValidation<ErrorObject>(schema, blank)),
    plainValid: repeated(() => plain(valid)),
    plainBlank: repeated(() => plain(blank)),
    blankErrors: validateAnswers('individual', blank).errors.length,
  };
}
