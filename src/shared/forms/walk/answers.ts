/** What leaves the form: answers hidden by a failing condition, and what a browser draft keeps. */
import type { CompiledForm } from '../model/compiledForm';
import type { FormValidator } from '../model/schemaTypes';
import {
  allProperties,
  childSchema,
  isLeaf,
  itemSchemaAt,
  listItemsAnswered,
  objectItemsOf,
  objectParts,
  partsInForce,
  resolveFor,
} from './schemaWalk';
import {
  isDraftExcluded,
  isPlainObject,
  isSensitive,
  type Answers,
  type JsonSchema,
} from '../model/schemaTypes';
import { escapePointerKey } from '../model/pointer';
import { listItemName } from './answerPlaces';
import { toPointer } from '../model/pointer';

function keepShown(
  validator: FormValidator,
  root: JsonSchema,
  schema: JsonSchema,
  answers: Answers,
): Answers {
  const out: Answers = {};
  const parts = partsInForce(validator, schema, root, answers);
  for (const [key, value] of Object.entries(answers)) {
    const childSchema_ = childSchema(parts, key, root);
    if (!childSchema_) continue;
    out[key] = keepShownValue(validator, root, childSchema_, value);
  }
  return out;
}

/** An answer with what its own conditions hide left out (an object's, each list item's). */
function keepShownValue(
  validator: FormValidator,
  root: JsonSchema,
  schema: JsonSchema,
  value: unknown,
): unknown {
  if (!isLeaf(schema) && isPlainObject(value)) return keepShown(validator, root, schema, value);
  if (Array.isArray(value) && listItemsAnswered(schema, root)) {
    // Each item of a list of records (an affiliated person) under its own conditions.
    return value.map((item: unknown, index) => {
      const itemSchema = itemSchemaAt(schema, index, root);
      return itemSchema ? keepShownValue(validator, root, itemSchema, item) : item;
    });
  }
  return value;
}

/**
 * The answers the form shows for themselves: an answer whose condition no longer holds (the
 * number of dependents after "married" turned to no) and unknown keys are left out. Applied
 * before validation on submit and before building the payload.
 */
export function omitHiddenAnswers(form: CompiledForm, answers: Answers): Answers {
  return keepShown(form.validator, form.schema, form.schema, answers);
}

function draftSafe(root: JsonSchema, schema: JsonSchema, answers: Answers): Answers {
  const properties = allProperties(schema, root);
  const out: Answers = {};
  for (const [key, value] of Object.entries(answers)) {
    const child = properties[key];
    if (!child || isDraftExcluded(child)) continue;
    const items = objectItemsOf(child, root);
    if (!isLeaf(child) && isPlainObject(value)) out[key] = draftSafe(root, child, value);
    else if (items && Array.isArray(value)) {
      // An affiliated person's name and address are kept, their SSN and date of birth are not.
      out[key] = value.map((item: unknown) =>
        isPlainObject(item) ? draftSafe(root, items, item) : item,
      );
    } else out[key] = value;
  }
  return out;
}

/**
 * The answers a browser draft may hold (docs/decisions.md, Drafts): without files, agreements and
 * fields marked `x-sensitive` (SSN, date of birth, passport numbers). Needs no validator.
 */
export function draftSafeAnswers(form: CompiledForm, answers: Answers): Answers {
  return draftSafe(form.schema, form.schema, answers);
}

/**
 * The prompts of the answers a browser draft never keeps that the form asks for `answers`
 * (required files and agreements, sensitive answers such as an affiliated person's SSN, named
 * 'Affiliated person 1: SSN'): what a user must give again after a draft is restored.
 */
export function promptsDraftsCannotKeep(form: CompiledForm, answers: Answers): string[] {
  return answersDraftsCannotKeep(form, answers).map(({ prompt }) => prompt);
}

/**
 * The answers a draft never keeps that the form asks for the given answers (required, or
 * sensitive), with their pointers; `missingOnly`: only those not given yet.
 */
export function answersDraftsCannotKeep(
  form: CompiledForm,
  answers: Answers,
  options: { missingOnly?: boolean } = {},
): { pointer: string; prompt: string }[] {
  const validator = form.validator;
  const root = form.schema;
  const out: { pointer: string; prompt: string }[] = [];
  const walk = (schema: JsonSchema, value: Answers, prefix: string, path: string) => {
    const resolved = resolveFor(validator, schema, root, value);
    const required = new Set(resolved.required ?? []);
    for (const [key, child] of Object.entries(resolved.properties ?? {})) {
      const answer = value[key];
      const childSchema = resolveFor(validator, child, root, answer);
      const pointer = `${path}/${escapePointerKey(key)}`;
      if (isDraftExcluded(childSchema)) {
        const given = answer !== undefined && answer !== null && answer !== '';
        if ((required.has(key) || isSensitive(childSchema)) && !(options.missingOnly && given)) {
          out.push({ pointer, prompt: `${prefix}${childSchema.title ?? key}` });
        }
        continue;
      }
      const items = objectItemsOf(childSchema, root);
      if (!isLeaf(childSchema) && isPlainObject(answer)) walk(childSchema, answer, prefix, pointer);
      else if (items && Array.isArray(answer)) {
        answer.forEach((item: unknown, index) => {
          if (isPlainObject(item)) {
            const name = listItemName(items, childSchema, key, index);
            walk(items, item, `${name}: `, `${pointer}/${index}`);
          }
        });
      }
    }
  };
  walk(root, answers, '', '');
  return out;
}

/**
 * The answers with the spaces at the ends of each text removed, as the sign-up email is trimmed:
 * a postal code pasted as ' 10118 ' is the postal code 10118, not a rule broken. Passwords
 * (`ui:widget: password`) keep every character. The browser's inputs trim on paste and on
 * leaving a field; the server trims again before validating, whatever sent the answers.
 */
export function trimAnswers(form: CompiledForm, answers: Answers): Answers {
  return trimmed(answers, form.uiSchema) as Answers;
}

function trimmed(value: unknown, ui: unknown): unknown {
  const node = isPlainObject(ui) ? ui : undefined;
  if (typeof value === 'string') return node?.['ui:widget'] === 'password' ? value : value.trim();
  if (Array.isArray(value)) return value.map((item: unknown) => trimmed(item, node?.items));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, trimmed(child, node?.[key])]),
  );
}

/**
 * The answers no question of the form asks (a typo in a fixture's key, an answer an example
 * kept after its question went), by pointer: keys no property, pattern or additional schema of
 * the object takes, whatever the conditions (a question a condition hides is still asked), inside
 * objects and list items too.
 */
export function unaskedAnswers(form: CompiledForm, answers: Answers): string[] {
  const root = form.schema;
  const out: string[] = [];
  const walk = (schema: JsonSchema, value: Answers, keys: string[]) => {
    const parts = objectParts(schema, root);
    for (const [key, answer] of Object.entries(value)) {
      const child = childSchema(parts, key, root);
      const path = [...keys, key];
      if (!child) out.push(toPointer(path));
      else if (!isLeaf(child) && isPlainObject(answer)) walk(child, answer, path);
      else if (Array.isArray(answer) && listItemsAnswered(child, root)) {
        answer.forEach((item: unknown, index) => {
          const itemSchema = itemSchemaAt(child, index, root);
          if (itemSchema && !isLeaf(itemSchema) && isPlainObject(item)) {
            walk(itemSchema, item, [...path, String(index)]);
          }
        });
      }
    }
  };
  walk(root, answers, []);
  return out;
}

/** The sentence naming answers no question asks: 'not asked by this form: /age, /bio'. */
export const unaskedMessage = (pointers: readonly string[]): string =>
  `not asked by this form: ${pointers.join(', ')}`;
