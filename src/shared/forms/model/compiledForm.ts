/**
 * The compiled form: one object per form, built once from its folder (`schemas/<form-id>/`) and
 * passed explicitly to whatever needs it (session, validation, payload, review, server routes,
 * CLI), as JSON Forms passes its `core` state. Nothing looks a form up by id in a global table:
 * the browser imports `virtual:forms/<form-id>` (the form with its precompiled validator), Node
 * compiles the folders it reads (`compileForms`, compileNode.ts).
 */
import type { BundledForm } from './bundleForm';
import type {
  Answers,
  FormValidator,
  JsonSchema,
  RegistrationAnnotation,
  UiSchema,
} from './schemaTypes';
import { simpleCondition } from '../walk/schemaWalk';
import { registrationOf } from './registration';
import { stepsOf, type FormStep } from './steps';

export interface CompiledForm {
  /** The folder name under schemas/ (kebab-case): the form id payloads and drafts carry. */
  readonly id: string;
  /** The bundled schema (common definitions copied in, `{firm}` substituted). Never mutate. */
  readonly schema: JsonSchema;
  readonly uiSchema: UiSchema;
  /** Valid sample answers (preview prefill, fixtures' base). */
  readonly example: Answers;
  /** SHA-256 of schema and uiSchema: the wording version the user saw. */
  readonly hash: string;
  /** The form's Ajv validator in rjsf's shape (condition checks, raw validation). */
  readonly validator: FormValidator;
  /** The wizard's steps (`ui:steps`), or undefined for a one-page form. */
  readonly steps: FormStep[] | undefined;
  /** What a stored registration makes of the answers, when the portal serves this form. */
  readonly registration: RegistrationAnnotation | undefined;
  /** The forms drawn inside this one (`ui:options.form` of a dialog list), by their id. */
  readonly nested: Readonly<Record<string, CompiledForm>>;
}

/** A form from its bundled files, its validator and the forms it draws inside it. */
export function assembleForm(
  id: string,
  bundled: BundledForm,
  validator: FormValidator,
  nested: Readonly<Record<string, CompiledForm>> = {},
): CompiledForm {
  return {
    id,
    schema: bundled.schema,
    uiSchema: bundled.uiSchema,
    example: bundled.example,
    hash: bundled.hash,
    validator: withSimpleConditions(validator),
    steps: stepsOf(bundled.uiSchema, bundled.schema),
    registration: registrationOf(bundled.schema),
    nested,
  };
}

/**
 * The validator with simple conditions (`{properties: {married: {const: true}}}`) decided
 * without Ajv. rjsf builds such schemas at run time to pick a schema dependency's `oneOf` branch;
 * a precompiled validator has no function for a schema built after the build ("No precompiled
 * validator function was found"), so deciding them directly keeps browser and server alike.
 */
function withSimpleConditions(validator: FormValidator): FormValidator {
  const isValid = validator.isValid.bind(validator);
  return new Proxy(validator, {
    get(target, property, receiver) {
      if (property !== 'isValid') return Reflect.get(target, property, receiver) as unknown;
      return ((schema, data, root) =>
        simpleCondition(schema as never, data) ??
        precompiledOrFalse(() => isValid(schema, data, root))) satisfies FormValidator['isValid'];
    },
  });
}

/**
 * A schema the browser build has no function for answers false, as rjsf answers a schema it
 * cannot compile. The build precompiles what rjsf asks; the walker also asks each `oneOf`/`anyOf`
 * option of a form's parts as written (a root `oneOf` of objects), and threw there: the prompt
 * of an answer (the leave warning, a dialog's title) crashed the page. Said false, the walker
 * takes the option naming most of the answers' keys, as it does when none is valid.
 */
function precompiledOrFalse(isValid: () => boolean): boolean {
  try {
    return isValid();
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('No precompiled validator function')) {
      return false;
    }
    throw error;
  }
}

/**
 * The ids of the forms a uiSchema draws inside its form (`ui:options.form` of a `ui:field`: the
 * affiliated-person dialog of the business form).
 */
export function nestedFormIds(uiSchema: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const options = record['ui:options'] as Record<string, unknown> | undefined;
    if (record['ui:field'] && typeof options?.form === 'string') found.add(options.form);
    Object.values(record).forEach(walk);
  };
  walk(uiSchema);
  return [...found];
}

/** Form ids are folder names in kebab-case (they travel in payloads and draft keys). */
export const FORM_ID_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
