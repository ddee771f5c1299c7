/** What leaves the form: answers hidden by a failing condition, and what a browser draft keeps. */
import { loadForm } from './loadForm';
import { allProperties, isLeaf, resolveFor } from './schemaWalk';
import { isPlainObject, type Answers, type JsonSchema } from './schemaTypes';
import type { FormId } from './types';
import { formValidator, type FormValidator } from './validators';

function keepShown(
  validator: FormValidator,
  root: JsonSchema,
  schema: JsonSchema,
  answers: Answers,
): Answers {
  const resolved = resolveFor(validator, schema, root, answers);
  const out: Answers = {};
  for (const [key, child] of Object.entries(resolved.properties ?? {})) {
    if (!(key in answers)) continue;
    const value = answers[key];
    const childSchema = resolveFor(validator, child, root, value);
    out[key] =
      !isLeaf(childSchema) && isPlainObject(value)
        ? keepShown(validator, root, childSchema, value)
        : value;
  }
  return out;
}

/**
 * The answers the form shows for themselves: an answer whose condition no longer holds (the
 * number of dependents after "married" turned to no) and unknown keys are left out. Applied
 * before validation on submit and before building the payload.
 */
export function omitHiddenAnswers(formId: FormId, answers: Answers): Answers {
  const form = loadForm(formId);
  return keepShown(formValidator(formId), form.schema, form.schema, answers);
}

/** Answers never kept in a browser draft: files, agreements (`const: true`) and sensitive ones. */
export function isDraftExcluded(schema: JsonSchema): boolean {
  return schema['x-file'] !== undefined || schema['x-sensitive'] === true || schema.const === true;
}

function draftSafe(root: JsonSchema, schema: JsonSchema, answers: Answers): Answers {
  const properties = allProperties(schema, root);
  const out: Answers = {};
  for (const [key, value] of Object.entries(answers)) {
    const child = properties[key];
    if (!child || isDraftExcluded(child)) continue;
    out[key] = !isLeaf(child) && isPlainObject(value) ? draftSafe(root, child, value) : value;
  }
  return out;
}

/**
 * The answers a browser draft may hold (DECISIONS): without files, agreements and fields marked
 * `x-sensitive` (SSN, date of birth, passport numbers). Needs no validator.
 */
export function draftSafeAnswers(formId: FormId, answers: Answers): Answers {
  const form = loadForm(formId);
  return draftSafe(form.schema, form.schema, answers);
}
