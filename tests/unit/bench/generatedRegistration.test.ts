/**
 * The bench's first-draw figure (bench/lib/firstDraw.ts) times a generated registration form: it
 * must stay a registration kind `forms check` accepts, of the 200 questions the figure names, all
 * on the first step, or the bench would time something else (or fail only when run).
 */
import { expect, it } from 'vitest';
import {
  FORM_ID,
  generatedRegistration,
  lastPrompt,
  QUESTIONS,
} from '../../../bench/lib/generatedRegistration';
import { checkForms } from '../../../src/shared/forms/check/checkForms';
import { questionPatterns } from '../../../src/shared/forms/walk/answerPlaces';
import { projectSources } from '../../forms';

it('is a registration kind forms check accepts, of 200 questions, all on its first step', () => {
  const sources = projectSources();
  const { schema, ui, example } = generatedRegistration();
  sources.forms[FORM_ID] = { schema, uiSchema: ui, example };
  const { problems, forms } = checkForms(sources);
  expect(problems).toEqual([]);
  const form = forms.get(FORM_ID)!;
  expect(form.registration?.choice?.label).toBeTruthy();
  expect(QUESTIONS).toBe(200);
  const prompts = [...questionPatterns(form.schema).values()].map((place) => place.prompt);
  expect(prompts).toHaveLength(QUESTIONS);
  // The prompt the figure waits for is the first step's last question's.
  expect(
    prompts.filter((prompt) => prompt.endsWith(lastPrompt({ schema, ui, example }))),
  ).toHaveLength(1);
  const steps = form.steps!;
  expect(steps.map((step) => step.review ?? false)).toEqual([false, true]);
  const onFirstStep = steps[0]!.sections.flatMap((section) => section.fields);
  expect(onFirstStep.sort()).toEqual(Object.keys(form.schema.properties!).sort());
});
