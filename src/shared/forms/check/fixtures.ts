/**
 * Fixtures as testers write them: the form's example answers plus a JSON Patch (RFC 6902) that
 * makes the case under test, and exactly the messages those answers must give. Adding a required
 * question then changes the example, and only the fixtures about that question.
 *
 *   {"description": "…", "patch": [{"op": "replace", "path": "/ssn", "value": "123"}],
 *    "expectedErrors": [{"path": "/ssn", "message": "…"}]}
 *
 * A fixture may give whole `answers` instead, for a case that is not the example with something
 * changed (a blank form: `"answers": {}`).
 */
import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { isPlainObject, type Answers } from '../model/schemaTypes';
import type { AnswerError } from '../model/types';

// fast-json-patch is CommonJS: its functions arrive on the default export under Node and Vite.
const { applyOperation, JsonPatchError } = fastJsonPatch;

/** Why a fixture could not be read, in one sentence naming the example it patches. */
export class FixtureError extends Error {
  constructor(
    message: string,
    /** Where in the fixture file ('/patch/2', or '' for the whole file). */
    readonly pointer: string,
  ) {
    super(message);
  }
}

/** What fast-json-patch's error names mean for a patch written against the example. */
const PATCH_REASONS: Record<string, string> = {
  OPERATION_PATH_UNRESOLVABLE: 'the example has no answer at that path',
  OPERATION_PATH_CANNOT_ADD: 'the example has nothing to add it to',
  OPERATION_PATH_ILLEGAL_ARRAY_INDEX: 'the example has no such list item',
  OPERATION_VALUE_OUT_OF_BOUNDS: 'the example has no such list item',
  OPERATION_FROM_UNRESOLVABLE: 'the example has no answer at its "from"',
  TEST_OPERATION_FAILED: 'the example’s answer there is not the one it tests for',
};

/** The example's file, as a fixture's messages name it. */
const exampleFileOf = (formId: string) => `schemas/${formId}/${formId}.example.json`;

/**
 * The answers a fixture stands for: its `answers`, or the example with its `patch` applied.
 * Throws a FixtureError when the fixture is not one, or when its patch no longer applies to the
 * example (an answer it changes was renamed or removed).
 */
export function fixtureAnswers(formId: string, example: Answers, content: unknown): Answers {
  if (!isPlainObject(content) || !Array.isArray(content.expectedErrors)) {
    throw new FixtureError(
      'a fixture needs "expectedErrors" and either "patch" (changes to the example) or "answers"',
      '',
    );
  }
  if (isPlainObject(content.answers)) return content.answers;
  const patch = content.patch;
  if (!Array.isArray(patch)) {
    throw new FixtureError(
      'a fixture needs "patch" (a JSON Patch of the example answers) or "answers"',
      '',
    );
  }
  // One operation at a time, on a copy: a failure is named by its own position (fast-json-patch
  // reports position 0 for any operation its validator refuses).
  let answers: Answers = structuredClone(example);
  (patch as Operation[]).forEach((operation, index) => {
    try {
      answers = applyOperation(answers, operation, true, true, true, index).newDocument;
    } catch (error) {
      if (!(error instanceof JsonPatchError)) throw error;
      const what = isPlainObject(operation) ? `(${operation.op} ${operation.path}) ` : '';
      const reason = PATCH_REASONS[error.name] ?? 'it is not a valid JSON Patch operation';
      throw new FixtureError(
        `patch operation ${index + 1} ${what}no longer applies to ${exampleFileOf(formId)}: ${reason}`,
        `/patch/${index}`,
      );
    }
  });
  return answers;
}

/** A fixture's expected messages (checked to be a list by `fixtureAnswers`). */
export function expectedErrorsOf(content: unknown): AnswerError[] {
  return (
    isPlainObject(content) && Array.isArray(content.expectedErrors) ? content.expectedErrors : []
  ) as AnswerError[];
}
