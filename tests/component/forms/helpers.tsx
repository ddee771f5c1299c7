import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { SchemaForm, type Answers, type SchemaFormProps } from '../../../src/web/forms/SchemaForm';
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
  const answers: { current: Answers } = { current: {} };
  const onSubmit = vi.fn<SchemaFormProps['onSubmit']>(async () => {});
  const user = userEvent.setup(userOptions);
  const element = (
    <SchemaForm
      form={form}
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
