/**
 * Validation with exactly the messages of the schema, the same in browser, server and CLI.
 *
 * Ajv with ajv-errors reports some things where users never see them; the translation here:
 * - `errorMessage.required` messages land on the parent object: moved to the missing field;
 * - the generic `must match "then" schema` (keyword `if`) errors: dropped;
 * - errors inside an answer (a file reference's `size`) are reported on the answer itself;
 * - one message per field, the first Ajv gives; fields in form order (uiSchema `ui:order`).
 */
import type { ErrorObject } from 'ajv';
import type { RJSFSchema } from '@rjsf/utils';
import { loadForm } from './loadForm';
import { allProperties, fieldsInOrder, fromPointer, isLeaf, toPointer } from './schemaWalk';
import { isPlainObject, type Answers, type JsonSchema, type UiSchema } from './schemaTypes';
import type { AnswerError, FormId, ValidationResult } from './types';
import { formValidator } from './validators';

/** Blank text (empty or spaces) and null count as no answer, as in the browser (rjsf drops ''). */
function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && !value.trim());
}

/**
 * Answers as validation sees them: blank answers removed, and every object the form shows
 * (an address) present, so its own required messages appear rather than one for the object.
 */
export function prepareAnswers(
  root: JsonSchema,
  answers: Answers,
  schema: JsonSchema = root,
): Answers {
  const out: Answers = {};
  for (const [key, value] of Object.entries(answers)) {
    if (!isBlank(value)) out[key] = value;
  }
  // Every object the schema can show, conditions or not: an empty object where a condition
  // hides it is checked against nothing, and resolving conditions here (rjsf's retrieveSchema)
  // cost more than the whole validation.
  for (const [key, childSchema] of Object.entries(objectProperties(schema, root))) {
    const value = out[key] ?? {};
    if (isPlainObject(value)) out[key] = prepareAnswers(root, value, childSchema);
  }
  return out;
}

const objectPropertiesCache = new WeakMap<JsonSchema, Record<string, JsonSchema>>();

/** The properties of `schema` (own and conditional) that hold answers of their own. */
function objectProperties(schema: JsonSchema, root: JsonSchema): Record<string, JsonSchema> {
  let found = objectPropertiesCache.get(schema);
  if (!found) {
    found = Object.fromEntries(
      Object.entries(allProperties(schema, root)).filter(([, child]) => !isLeaf(child)),
    );
    objectPropertiesCache.set(schema, found);
  }
  return found;
}

interface RawError {
  path: string;
  message: string;
}

function translate(error: ErrorObject): RawError[] {
  if (error.keyword === 'if') return [];
  const message = error.message ?? 'Invalid answer';
  if (error.keyword === 'errorMessage') {
    const originals = (error.params as { errors?: ErrorObject[] }).errors ?? [];
    const missing = originals.find((original) => original.keyword === 'required');
    if (missing) {
      const property = (missing.params as { missingProperty: string }).missingProperty;
      return [{ path: `${error.instancePath}/${property}`, message }];
    }
  }
  return [{ path: error.instancePath, message }];
}

/** The pointer of the answer a raw path belongs to (a path inside a file reference → the file). */
function answerPointer(path: string, leaves: Set<string>): string {
  const keys = fromPointer(path);
  for (let length = 1; length <= keys.length; length++) {
    const pointer = toPointer(keys.slice(0, length));
    if (leaves.has(pointer)) return pointer;
  }
  return path;
}

const fieldOrderCache = new WeakMap<
  JsonSchema,
  { leaves: Set<string>; rank: Map<string, number> }
>();

/** The answers' pointers and their form order, computed once per form. */
function fieldOrder(schema: JsonSchema, uiSchema: UiSchema) {
  let order = fieldOrderCache.get(schema);
  if (!order) {
    const fields = fieldsInOrder(schema, uiSchema);
    order = {
      leaves: new Set(fields.filter((field) => field.leaf).map((field) => field.pointer)),
      rank: new Map(fields.map((field, index) => [field.pointer, index])),
    };
    fieldOrderCache.set(schema, order);
  }
  return order;
}

/** Validates answers against a form with its registered validator. */
export function validateAnswers(formId: FormId, answers: Answers): ValidationResult {
  const form = loadForm(formId);
  const validator = formValidator(formId);
  const prepared = prepareAnswers(form.schema, answers);
  const { errors = [] } = validator.rawValidation<ErrorObject>(form.schema as RJSFSchema, prepared);
  const { leaves, rank } = fieldOrder(form.schema, form.uiSchema);

  const byField = new Map<string, string>();
  for (const error of errors.flatMap(translate)) {
    const path = answerPointer(error.path, leaves);
    if (!byField.has(path)) byField.set(path, error.message);
  }
  const result: AnswerError[] = [...byField].map(([path, message]) => ({ path, message }));
  result.sort((a, b) => (rank.get(a.path) ?? -1) - (rank.get(b.path) ?? -1));
  return { valid: result.length === 0, errors: result };
}
