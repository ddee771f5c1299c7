/**
 * Choices whose values are objects (`enum` of objects, `const` objects in a `oneOf`), declared
 * `type: "object"` as JSON Schema users write them: one answer, kept whole by every part of the
 * engine (issue 16 §4). rjsf's omitExtraData used to drop them (an object without properties).
 */
import { describe, expect, it } from 'vitest';
import { createSchemaUtils, type RJSFSchema } from '@rjsf/utils';
import { registrationReview } from '../../../src/server/admin/registrationView';
import { allRows } from '../../../src/shared/forms/review/reviewRows';
import { browserForm } from '../../../src/shared/forms/check/checkBuild';
import { checkForms } from '../../../src/shared/forms/check/checkForms';
import { fromPayload, toPayloadJson } from '../../../src/shared/forms/payload/payload';
import { omitHiddenAnswers } from '../../../src/shared/forms/walk/answers';
import { validateAnswers } from '../../../src/shared/forms/validation/validateAnswers';
import { objectChoiceForm, OBJECT_CHOICE_ANSWERS } from './objectChoiceForm';

describe('choices of objects (type: object)', () => {
  const { problems, forms } = checkForms(objectChoiceForm());
  const form = forms.get('plans')!;

  it('are accepted by forms check', () => {
    expect(problems).toEqual([]);
  });

  it('validate alike in the browser and on the server, and refuse an object not offered', () => {
    expect(validateAnswers(form, OBJECT_CHOICE_ANSWERS)).toEqual({ valid: true, errors: [] });
    expect(validateAnswers(browserForm(form), OBJECT_CHOICE_ANSWERS)).toEqual({
      valid: true,
      errors: [],
    });
    expect(validateAnswers(form, { plan: { tier: 'gold' } }).errors).toEqual([
      { path: '/plan', message: 'Choose a plan' },
    ]);
  });

  it("are kept by the server's and rjsf's omission of hidden answers", () => {
    expect(omitHiddenAnswers(form, OBJECT_CHOICE_ANSWERS)).toEqual(OBJECT_CHOICE_ANSWERS);
    const utils = createSchemaUtils(form.validator, form.schema as RJSFSchema);
    expect(utils.omitExtraData(form.schema as RJSFSchema, OBJECT_CHOICE_ANSWERS)).toEqual(
      OBJECT_CHOICE_ANSWERS,
    );
  });

  it('are sent whole with their prompt, decoded back, and reviewed', () => {
    const payload = toPayloadJson(form, OBJECT_CHOICE_ANSWERS);
    const fields = Object.fromEntries(
      Object.entries(payload.parts).map(([name, part]) => [name, JSON.stringify(part)]),
    );
    const decoded = fromPayload(form, { ...fields, schemaHash: payload.schemaHash });
    expect(decoded.answers).toEqual(OBJECT_CHOICE_ANSWERS);
    expect(decoded.prompts['/plan']).toBe('Plan');
    expect(decoded.prompts['/region']).toBe('Region');
    // The console's review (the applicant's draws the same rows): each choice by its name.
    const rows = allRows(registrationReview(form, payload.parts).sections);
    expect(rows.map(({ prompt, text }) => [prompt, text])).toEqual([
      ['Plan', 'Full with support'],
      ['Region', 'Europe'],
    ]);
  });
});
