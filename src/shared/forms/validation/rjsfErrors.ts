/**
 * rjsf's side of validation: our AnswerError list as rjsf's error list and ErrorSchema, and a
 * rjsf `ValidatorType` whose form validation is `validateAnswers` (so the browser shows exactly
 * the messages the server and CLI give), delegating condition checks to the form's validator.
 */
import {
  createErrorHandler,
  getDefaultFormState,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
  type CustomValidator,
  type ErrorSchema,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema as RjsfUiSchema,
  type ValidationData,
} from '@rjsf/utils';
import type { CompiledForm } from '../model/compiledForm';
import type { FormValidator } from '../model/schemaTypes';
import { fieldsInOrder } from '../walk/schemaWalk';
import type { Answers } from '../model/schemaTypes';
import type { AnswerError } from '../model/types';
import { validateAnswers } from './validateAnswers';
import { fromPointer } from '../model/pointer';

type Data = Record<string, unknown>;

/** rjsf's error list and ErrorSchema for our errors; titles from the form when given. */
export function toRjsfErrors(
  errors: AnswerError[],
  form?: CompiledForm,
): { errors: RJSFValidationError[]; errorSchema: ErrorSchema<Data> } {
  const titles = new Map<string, string>();
  if (form) {
    for (const field of fieldsInOrder(form.schema, form.uiSchema)) {
      if (field.schema.title) titles.set(field.pointer, field.schema.title);
    }
  }
  const list = errors.map((error): RJSFValidationError => {
    const property = fromPointer(error.path)
      .map((key) => `.${key}`)
      .join('');
    const title = titles.get(error.path);
    return {
      name: 'errorMessage',
      property,
      message: error.message,
      stack: error.message,
      params: {},
      ...(title ? { title } : {}),
    };
  });
  return { errors: list, errorSchema: toErrorSchema<Data>(list) };
}

/** Our errors from rjsf's ErrorSchema (extraErrors from the server, for instance). */
export function fromErrorSchema(errorSchema: ErrorSchema<Data>, path = ''): AnswerError[] {
  const out: AnswerError[] = [];
  for (const [key, value] of Object.entries(errorSchema as Record<string, unknown>)) {
    if (key === '__errors' && Array.isArray(value)) {
      for (const message of value) out.push({ path, message: String(message) });
    } else if (value && typeof value === 'object') {
      out.push(...fromErrorSchema(value as ErrorSchema<Data>, `${path}/${key}`));
    }
  }
  return out;
}

/**
 * The validator to hand rjsf's `<Form validator>`: full-form validation goes through
 * `validateAnswers` (our messages, one per field, moved to the missing field, no generic if/then
 * errors); `isValid` (condition resolution) and `rawValidation` use the registered validator.
 */
export function createRjsfValidator(form: CompiledForm): FormValidator {
  let validator = rjsfValidators.get(form);
  if (!validator) rjsfValidators.set(form, (validator = rjsfValidatorOf(form)));
  return validator;
}

/** One per form, so a dialog and its page share the same object (rjsf caches by identity). */
const rjsfValidators = new WeakMap<CompiledForm, FormValidator>();

function rjsfValidatorOf(form: CompiledForm): FormValidator {
  const base = form.validator;
  return {
    validateFormData(
      formData: Data | undefined,
      schema: RJSFSchema,
      customValidate?: CustomValidator<Data, RJSFSchema>,
      transformErrors?: ErrorTransformer<Data, RJSFSchema>,
      uiSchema?: RjsfUiSchema<Data, RJSFSchema>,
    ): ValidationData<Data> {
      const result = validateAnswers(form, (formData ?? {}) as Answers);
      let { errors } = toRjsfErrors(result.errors, form);
      if (transformErrors) errors = transformErrors(errors, uiSchema);
      const errorSchema = toErrorSchema<Data>(errors);
      if (!customValidate) return { errors, errorSchema };
      const data = getDefaultFormState(base, schema, formData, schema, true) as Data;
      const handler = customValidate(data, createErrorHandler<Data>(data), uiSchema, errorSchema);
      return validationDataMerge<Data>({ errors, errorSchema }, unwrapErrorHandler<Data>(handler));
    },
    isValid: (schema, formData, rootSchema) => base.isValid(schema, formData, rootSchema),
    rawValidation: (schema, formData) => base.rawValidation(schema, formData),
  } as FormValidator;
}
