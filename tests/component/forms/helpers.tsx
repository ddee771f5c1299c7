import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { draftSafeAnswers } from '../../../src/shared/forms/walk/answers';
import {
  SchemaForm,
  type Answers,
  type SchemaFormProps,
  type SchemaFormSource,
} from '../../../src/web/forms/SchemaForm';
import { browserDrafts, FormSession } from '../../../src/web/forms/session';
import { drawingOnly } from '../../forms';
import { form } from './testForm';

/**
 * Renders the engine's individual form (see testForm.ts) with an always-enabled submit button
 * ('Send'), recording the committed answers; every prop can be overridden.
 */
export function renderForm(
  overrides: Partial<Omit<SchemaFormProps, 'session'>> = {},
  userOptions = {},
  wrap: (element: ReactElement) => ReactElement = (element) => element,
) {
  const { form: drawn = form, ...options } = overrides;
  return renderSource({ form: drawn }, options, userOptions, wrap);
}

/**
 * renderForm drawing only the sections of the individual form that hold `keys`, as one step (Send
 * submits, as on one page): the same schema, uiSchema, validator, widgets and draft as the whole
 * form, for a test about those questions. The whole form is ~1,200 elements, and jsdom's label
 * and style lookups (each `field()`, `getByRole`) and React's render grow with what is drawn.
 */
export function renderQuestions(
  keys: readonly string[],
  overrides: Partial<Omit<SchemaFormProps, 'session' | 'form'>> = {},
) {
  const { formData, ...options } = overrides;
  const drawn = drawingOnly(form, keys);
  // As SchemaForm opens its own session: a draft is kept unless readonly or told not to.
  const keepDraft = options.keepDraft ?? !options.readonly;
  const session = new FormSession({
    form: { ...drawn, steps: drawn.steps?.filter((step) => step.sections.length > 0) },
    initial: formData,
    persistence: keepDraft
      ? browserDrafts(form.id, (answers) => draftSafeAnswers(form, answers))
      : undefined,
  });
  return renderSource({ session }, options, {}, (element) => element);
}

function renderSource(
  source: SchemaFormSource,
  overrides: Partial<Omit<SchemaFormProps, 'session' | 'form'>>,
  userOptions: Parameters<typeof userEvent.setup>[0],
  wrap: (element: ReactElement) => ReactElement,
) {
  const answers: { current: Answers } = { current: {} };
  const onSubmit = vi.fn<SchemaFormProps['onSubmit']>(async () => {});
  const user = userEvent.setup(userOptions);
  const element = (
    <SchemaForm
      {...source}
      onSubmit={onSubmit}
      onAnswersChange={(a) => (answers.current = a)}
      {...overrides}
    >
      {'children' in overrides ? overrides.children : <button type="submit">Send</button>}
    </SchemaForm>
  );
  const result = render(wrap(element));
  return { user, answers, onSubmit, ...result };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The input labelled by a prompt (MUI appends ' *' to required labels). */
export function field(prompt: string, selector = 'input, select, textarea'): HTMLElement {
  return screen.getByLabelText(new RegExp(`^${escape(prompt)}( \\*)?$`), { selector });
}
