/**
 * Answers saved under an earlier version of a form carried to the current one by pointer: an
 * answer is kept where the current form still asks a question there, accepts the answer and
 * shows it; otherwise it is dropped and named. Questions are compared by pointer pattern (any
 * affiliated person's SSN is one question), so the applicant is told once which are new, which
 * were reworded and which earlier answers no longer apply.
 */
import type { RJSFSchema } from '@rjsf/utils';
import type { CompiledForm } from '../model/compiledForm';
import { isPlainObject, type Answers, type JsonSchema } from '../model/schemaTypes';
import { answerPlaces, patternOf, placeAt, questionPatterns, valueAt } from './answerPlaces';
import { omitHiddenAnswers } from './answers';
import { fromPointer } from '../model/pointer';

interface CarriedAnswers {
  /** The answers as the current form takes them. */
  answers: Answers;
  /** Prompts of the questions the current form asks that the earlier one did not. */
  added: string[];
  /** Prompts (as now worded) of answered questions whose wording changed. */
  reworded: string[];
  /** Prompts (as then worded) of the answers dropped. */
  dropped: string[];
  /** The pointers of the answers dropped. */
  droppedPointers: string[];
}

/** The document without the value at `pointer` (a copy; objects only lose the key). */
function withoutValueAt(document: Answers, pointer: string): Answers {
  const keys = fromPointer(pointer);
  const last = keys.pop();
  let node: unknown = document;
  for (const key of keys) {
    node = Array.isArray(node) ? node[Number(key)] : isPlainObject(node) ? node[key] : undefined;
  }
  if (last !== undefined && isPlainObject(node)) delete node[last];
  return document;
}

/** Whether the current form's question accepts the answer on its own terms. */
function accepts(form: CompiledForm, schema: JsonSchema, value: unknown): boolean {
  // rjsf's validator types its data as form data; a single answer is validated the same way.
  return form.validator.isValid(
    schema as RJSFSchema,
    value as Record<string, unknown>,
    form.schema as RJSFSchema,
  );
}

/**
 * Carries `answers`, saved under the form version whose schema is `previous`, to `form`. Without
 * the earlier schema (a version this server never recorded) the answers are still carried by
 * the current form's questions, and only the dropped ones can be named.
 */
export function carryAnswers(
  previous: JsonSchema | undefined,
  form: CompiledForm,
  answers: Answers,
): CarriedAnswers {
  const root = form.schema;
  const now = questionPatterns(root);
  const then = previous ? questionPatterns(previous) : undefined;
  const added = then
    ? [...now.values()].filter((place) => !then.has(place.pointer)).map((place) => place.prompt)
    : [];
  const reworded = new Set<string>();
  const dropped: { pointer: string; prompt: string }[] = [];
  const carried = structuredClone(answers);
  const earlier = answerPlaces(previous ?? root, answers);
  for (const pointer of earlier.unknown) {
    withoutValueAt(carried, pointer);
    dropped.push({ pointer, prompt: pointer });
  }
  for (const place of earlier.places) {
    const current = placeAt(root, place.pointer);
    const value = valueAt(answers, place.pointer);
    if (!current || !accepts(form, current.schema, value)) {
      withoutValueAt(carried, place.pointer);
      dropped.push({ pointer: place.pointer, prompt: place.prompt });
      continue;
    }
    const pattern = patternOf(root, place.pointer);
    const before = then?.get(pattern)?.prompt;
    const after = now.get(pattern)?.prompt;
    if (before !== undefined && after !== undefined && before !== after) reworded.add(after);
  }
  // Answers the current form no longer shows for these answers (a condition changed).
  const shown = omitHiddenAnswers(form, carried);
  for (const place of answerPlaces(root, carried).places) {
    if (valueAt(shown, place.pointer) === undefined) {
      dropped.push({ pointer: place.pointer, prompt: place.prompt });
    }
  }
  // In the order the earlier form asked them (as the applicant met them).
  const order = [...(then ?? now).keys()];
  const rank = (pointer: string) => {
    const at = order.indexOf(patternOf(previous ?? root, pointer));
    return at === -1 ? order.length : at;
  };
  dropped.sort((a, b) => rank(a.pointer) - rank(b.pointer));
  return {
    answers: shown,
    added,
    reworded: [...reworded],
    dropped: dropped.map((item) => item.prompt),
    droppedPointers: dropped.map((item) => item.pointer),
  };
}
