/**
 * Forms nobody here wrote (issue 25 §2), drawn by SchemaForm with the validator the browser build
 * makes (Ajv standalone code, as `forms check` builds it): a small form of its own for each.
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { checkForms } from '../../../src/shared/forms/check/checkForms';
import { browserForm } from '../../../src/shared/forms/check/checkBuild';
import type { JsonSchema } from '../../../src/shared/forms/model/schemaTypes';
import { createRjsfValidator } from '../../../src/shared/forms/validation/rjsfErrors';
import { SchemaForm, type Answers } from '../../../src/web/forms/SchemaForm';

const MESSAGES = {
  type: 'Please check',
  required: 'Please answer',
  oneOf: 'Choose one',
  anyOf: 'Choose one',
};

function draw(schema: JsonSchema, example: Answers, uiSchema: Record<string, unknown> = {}) {
  const { problems, forms } = checkForms({
    forms: { sample: { schema: { 'x-messages': MESSAGES, ...schema }, uiSchema, example } },
    commons: {},
  });
  expect(problems).toEqual([]);
  const form = browserForm(forms.get('sample')!);
  const onSubmit = vi.fn(async (_answers: Answers) => {});
  render(
    <SchemaForm
      formId="sample"
      form={form}
      keepDraft={false}
      schema={form.schema as RJSFSchema}
      uiSchema={form.uiSchema as UiSchema}
      validator={createRjsfValidator(form)}
      onSubmit={onSubmit}
    >
      <button type="submit">Send</button>
    </SchemaForm>,
  );
  return onSubmit;
}

describe('forms nobody here wrote, on the page', { timeout: 60_000 }, () => {
  for (const keyword of ['oneOf', 'anyOf']) {
    it(`3: ${keyword} at the root is drawn with the browser's validator, and sent`, async () => {
      const onSubmit = draw(
        {
          type: 'object',
          [keyword]: [
            {
              title: 'By name',
              properties: { lorem: { type: 'string', title: 'Name' } },
              required: ['lorem'],
            },
            {
              title: 'By code',
              properties: { ipsum: { type: 'string', title: 'Code' } },
              required: ['ipsum'],
            },
          ],
        },
        { lorem: 'a' },
      );
      const user = userEvent.setup();
      await user.selectOptions(screen.getByRole('combobox'), 'By code');
      await user.type(screen.getByRole('textbox', { name: /Code/ }), 'X1');
      await user.click(screen.getByRole('button', { name: 'Send' }));
      await waitFor(() => expect(onSubmit).toHaveBeenCalled());
      expect(onSubmit.mock.calls[0]![0]).toEqual({ ipsum: 'X1' });
    });
  }

  it('2: an optional object left out stays out, and the form is sent without it', async () => {
    const onSubmit = draw(
      {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', title: 'Name' },
          employer: {
            type: 'object',
            title: 'Employer',
            required: ['company'],
            properties: { company: { type: 'string', title: 'Company' } },
          },
        },
      },
      { name: 'Ann' },
    );
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Ann');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]![0]).toEqual({ name: 'Ann' });
  });

  const EMPLOYER: JsonSchema = {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', title: 'Name' },
      employer: {
        type: 'object',
        title: 'Employer',
        required: ['company'],
        properties: { company: { type: 'string', title: 'Company' } },
      },
    },
  };
  const CONTROLS = { 'ui:globalOptions': { enableOptionalDataFieldForType: ['object'] } };

  it('2: the person adds an optional object, answers it, and it is sent', async () => {
    const onSubmit = draw(EMPLOYER, { name: 'Ann' }, CONTROLS);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Ann');
    expect(screen.queryByRole('textbox', { name: /Company/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add Employer' }));
    await user.type(screen.getByRole('textbox', { name: /Company/ }), 'Acme');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]![0]).toStrictEqual({
      name: 'Ann',
      employer: { company: 'Acme' },
    });
  });

  it('2: the person removes an optional object again, and it is sent absent', async () => {
    const onSubmit = draw(EMPLOYER, { name: 'Ann' }, CONTROLS);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Ann');
    await user.click(screen.getByRole('button', { name: 'Add Employer' }));
    await user.type(screen.getByRole('textbox', { name: /Company/ }), 'Acme');
    await user.click(screen.getByRole('button', { name: 'Remove Employer' }));
    expect(screen.queryByRole('textbox', { name: /Company/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    const sent = onSubmit.mock.calls[0]![0];
    expect(sent).toStrictEqual({ name: 'Ann' });
    expect('employer' in sent).toBe(false);
  });
});
