/**
 * Choices whose values are objects, declared `type: "object"` as JSON Schema users write them,
 * keep their answers on the page (issue 16 §4): the form compiled from its folder's files as the
 * engine compiles any form, drawn by SchemaForm with its own validator and session.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { UiSchema } from '@rjsf/utils';
import { compileForms } from '../../../src/shared/forms/model/compileNode';
import { SchemaForm, type Answers } from '../../../src/web/forms/SchemaForm';
import { objectChoiceForm } from '../../unit/forms/objectChoiceForm';

describe('choices of objects on the page', { timeout: 30_000 }, () => {
  it('keep the chosen objects in the answers, submitted whole', async () => {
    const sources = objectChoiceForm();
    const plans = sources.forms.plans!;
    plans.uiSchema = {
      ...(plans.uiSchema as UiSchema),
      plan: { 'ui:widget': 'select', 'ui:enumNames': ['Basic', 'Full with support'] },
      region: { 'ui:widget': 'radio' },
    };
    const form = compileForms(sources).forms.get('plans')!;
    const onAnswersChange = vi.fn<(answers: Answers) => void>();
    const onSubmit = vi.fn(async (_answers: Answers) => {});
    const user = userEvent.setup();
    render(
      <SchemaForm
        form={form}
        keepDraft={false}
        onAnswersChange={onAnswersChange}
        onSubmit={onSubmit}
      >
        <button type="submit">Send</button>
      </SchemaForm>,
    );
    const plan = screen.getByRole('combobox', { name: /^Plan/ });
    const full = within(plan)
      .getAllByRole('option')
      .find((option) => option.textContent === 'Full with support')!;
    await user.selectOptions(plan, full);
    await user.click(screen.getByRole('radio', { name: 'Europe' }));
    const expected = { plan: { tier: 'full', support: true }, region: { code: 'EU' } };
    await waitFor(() => expect(onAnswersChange.mock.lastCall?.[0]).toEqual(expected));
    expect(plan).toHaveDisplayValue('Full with support');
    expect(screen.getByRole('radio', { name: 'Europe' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]![0]).toEqual(expected);
  });
});
