import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { SchemaForm, type Answers } from '../../../src/web/forms/SchemaForm';
import { formOf } from '../../forms';

/**
 * rjsf's standard widget meanings, as a compliance team writing an ordinary JSON Schema form
 * expects them: formats, multi-selects, enums of any type, disabled options and the stock widget
 * names. Each form here is a small schema of its own, drawn by the engine's SchemaForm.
 */
function renderSchema(schema: RJSFSchema, uiSchema: UiSchema = {}, formData?: Answers) {
  const onAnswersChange = vi.fn<(answers: Answers) => void>();
  const user = userEvent.setup();
  render(
    <SchemaForm
      form={formOf({ schema, uiSchema })}
      keepDraft={false}
      formData={formData}
      onAnswersChange={onAnswersChange}
      onSubmit={() => {}}
    />,
  );
  const answers = () => onAnswersChange.mock.lastCall?.[0] ?? {};
  return { user, answers };
}

const one = (property: RJSFSchema): RJSFSchema => ({
  type: 'object',
  properties: { answer: { title: 'Answer', ...property } },
});
const input = (selector = 'input') =>
  screen.getByLabelText(/^Answer/, { selector }) as HTMLInputElement;

describe('dates and times as rjsf means them', { timeout: 30_000 }, () => {
  it('format: date is the browser date input, answered YYYY-MM-DD', async () => {
    const { answers } = renderSchema(
      one({ type: 'string', format: 'date' }),
      {},
      {
        answer: '2026-01-31',
      },
    );
    expect(input()).toHaveAttribute('type', 'date');
    expect(input()).toHaveValue('2026-01-31');
    fireEvent.change(input(), { target: { value: '2026-03-05' } });
    fireEvent.blur(input());
    await waitFor(() => expect(answers().answer).toBe('2026-03-05'));
    // Its label never sits over the input's own 'mm/dd/yyyy'.
    expect(document.querySelector('label[for="root_answer"]')).toHaveAttribute(
      'data-shrink',
      'true',
    );
  });

  it('format: time is the browser time input, answered HH:MM:SS', async () => {
    const { answers } = renderSchema(
      one({ type: 'string', format: 'time' }),
      {},
      {
        answer: '09:15:00',
      },
    );
    expect(input()).toHaveAttribute('type', 'time');
    expect(input()).toHaveValue('09:15');
    fireEvent.change(input(), { target: { value: '14:30' } });
    fireEvent.blur(input());
    await waitFor(() => expect(answers().answer).toBe('14:30:00'));
  });

  it('format: date-time is the local date-time input, answered as an ISO date-time', async () => {
    const stored = new Date(2026, 2, 5, 8, 45).toISOString();
    const { answers } = renderSchema(
      one({ type: 'string', format: 'date-time' }),
      {},
      {
        answer: stored,
      },
    );
    expect(input()).toHaveAttribute('type', 'datetime-local');
    expect(input()).toHaveValue('2026-03-05T08:45');
    fireEvent.change(input(), { target: { value: '2026-03-05T14:30' } });
    fireEvent.blur(input());
    await waitFor(() => expect(answers().answer).toBe(new Date(2026, 2, 5, 14, 30).toISOString()));
    // The committed answer is not redrawn (a redraw would take the input from under the user).
    expect(input()).toHaveValue('2026-03-05T14:30');
  });

  it('the MM/DD/YYYY date only where the uiSchema names it (usDate)', async () => {
    const { user, answers } = renderSchema(one({ type: 'string' }), {
      answer: { 'ui:widget': 'usDate' },
    });
    expect(input()).toHaveAttribute('type', 'text');
    await user.type(input(), '03052026');
    expect(input()).toHaveValue('03/05/2026');
    await user.tab();
    await waitFor(() => expect(answers().answer).toBe('03/05/2026'));
  });
});

describe('choices keep their answers', { timeout: 30_000 }, () => {
  const colours: RJSFSchema = { type: 'string', enum: ['red', 'green', 'blue'] };

  it('a multi-select (unique items of an enum) shows and keeps every choice', async () => {
    const { user, answers } = renderSchema(
      one({ type: 'array', uniqueItems: true, items: colours }),
      {},
      { answer: ['green'] },
    );
    const select = screen.getByRole('combobox');
    expect(select).toHaveTextContent('green');
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'blue' }));
    await waitFor(() => expect(answers().answer).toEqual(['green', 'blue']));
    await user.click(screen.getByRole('option', { name: 'green' }));
    await waitFor(() => expect(answers().answer).toEqual(['blue']));
  });

  it('checkboxes for an array of oneOf consts keep every ticked choice', async () => {
    const { user, answers } = renderSchema(
      one({
        type: 'array',
        uniqueItems: true,
        items: {
          oneOf: [
            { const: 1, title: 'One' },
            { const: 2, title: 'Two' },
            { const: 3, title: 'Three' },
          ],
        },
      }),
      { answer: { 'ui:widget': 'checkboxes' } },
    );
    await user.click(screen.getByRole('checkbox', { name: 'Three' }));
    await user.click(screen.getByRole('checkbox', { name: 'One' }));
    await waitFor(() => expect(answers().answer).toEqual([1, 3]));
    expect(screen.getByRole('checkbox', { name: 'One' })).toBeChecked();
  });

  it.each([
    ['numbers', { type: 'number', enum: [1, 2.5, 10] }, '2.5', 2.5],
    ['booleans', { type: 'boolean', enum: [true, false] }, 'No', false],
    ['objects', { enum: [{ code: 'US' }, { code: 'CA' }] }, '{"code":"CA"}', { code: 'CA' }],
  ])(
    'an enum of %s is chosen by index and answered as the value itself',
    async (_kind, property, label, expected) => {
      const objects = 'enum' in property && typeof property.enum[0] === 'object';
      const { user, answers } = renderSchema(one(property as RJSFSchema), {
        answer: {
          'ui:widget': 'select',
          // Objects have no text of their own: the uiSchema names them.
          ...(objects ? { 'ui:enumNames': property.enum.map((o) => JSON.stringify(o)) } : {}),
        },
      });
      const select = screen.getByRole('combobox', { name: /^Answer/ });
      const option = within(select)
        .getAllByRole('option')
        .find((o) => o.textContent === label)!;
      await user.selectOptions(select, option);
      await waitFor(() => expect(answers().answer).toEqual(expected));
      expect(select).toHaveDisplayValue(label);
    },
  );

  it('radios of objects keep the object', async () => {
    const { user, answers } = renderSchema(
      one({ enum: [{ plan: 'basic' }, { plan: 'full' }] } as RJSFSchema),
      { answer: { 'ui:widget': 'radio', 'ui:enumNames': ['Basic', 'Full'] } },
    );
    await user.click(screen.getByRole('radio', { name: 'Full' }));
    await waitFor(() => expect(answers().answer).toEqual({ plan: 'full' }));
  });

  it('ui:enumDisabled options are shown and cannot be chosen', () => {
    renderSchema(one(colours), { answer: { 'ui:enumDisabled': ['green'] } });
    const select = screen.getByRole('combobox', { name: /^Answer/ });
    expect(within(select).getByRole('option', { name: 'green' })).toBeDisabled();
    expect(within(select).getByRole('option', { name: 'red' })).toBeEnabled();
  });

  it('ui:enumDisabled disables radios too, objects compared by content', () => {
    renderSchema(one({ enum: [{ plan: 'basic' }, { plan: 'full' }] } as RJSFSchema), {
      answer: { 'ui:widget': 'radio', 'ui:enumDisabled': [{ plan: 'full' }] },
    });
    const [basic, full] = screen.getAllByRole('radio');
    expect(full).toBeDisabled();
    expect(basic).toBeEnabled();
  });
});

describe("rjsf's stock widgets by name", { timeout: 30_000 }, () => {
  it('password: a password input whose spaces are kept', async () => {
    const { user, answers } = renderSchema(one({ type: 'string' }), {
      answer: { 'ui:widget': 'password' },
    });
    expect(input()).toHaveAttribute('type', 'password');
    await user.type(input(), ' s3cret ');
    await user.tab();
    await waitFor(() => expect(answers().answer).toBe(' s3cret '));
  });

  it('range: a slider answered with a number', async () => {
    const { answers } = renderSchema(
      one({ type: 'integer', minimum: 0, maximum: 10 }),
      { answer: { 'ui:widget': 'range' } },
      { answer: 4 },
    );
    const slider = screen.getByRole('slider');
    expect(slider).toHaveValue('4');
    fireEvent.change(slider, { target: { value: '7' } });
    await waitFor(() => expect(answers().answer).toBe(7));
  });

  it('textarea: several lines kept, only the ends trimmed', async () => {
    const { user, answers } = renderSchema(one({ type: 'string' }), {
      answer: { 'ui:widget': 'textarea' },
    });
    const area = screen.getByLabelText(/^Answer/, { selector: 'textarea' });
    // rjsf's five rows, drawn by the textarea itself: no hidden twin measuring it as it draws.
    expect(area).toHaveAttribute('rows', '5');
    expect(document.querySelectorAll('textarea')).toHaveLength(1);
    await user.type(area, '  first line{Enter}second line  ');
    await user.tab();
    await waitFor(() => expect(answers().answer).toBe('first line\nsecond line'));
  });

  it('hidden: no visible question, the answer kept', async () => {
    const { user, answers } = renderSchema(
      {
        type: 'object',
        properties: {
          source: { type: 'string', title: 'Source' },
          name: { type: 'string', title: 'Name' },
        },
      },
      { source: { 'ui:widget': 'hidden' } },
      { source: 'campaign-7' },
    );
    expect(screen.queryByText('Source')).toBeNull();
    expect(document.querySelector('input[type="hidden"]')).toHaveValue('campaign-7');
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.tab();
    await waitFor(() => expect(answers()).toEqual({ source: 'campaign-7', name: 'Ada' }));
  });

  it('an object under a ui:widget that is no file reference is drawn as its fields', async () => {
    const { user, answers } = renderSchema(
      {
        type: 'object',
        properties: {
          address: {
            type: 'object',
            title: 'Address',
            properties: { city: { type: 'string', title: 'City' } },
          },
        },
      },
      { address: { 'ui:widget': 'text' } },
      { address: { city: 'Oslo' } },
    );
    expect(screen.queryByDisplayValue('[object Object]')).toBeNull();
    const city = screen.getByLabelText('City');
    expect(city).toHaveValue('Oslo');
    await user.type(city, ' East');
    await user.tab();
    await waitFor(() => expect(answers()).toEqual({ address: { city: 'Oslo East' } }));
  });
});

describe('text answers', { timeout: 30_000 }, () => {
  it('are trimmed on paste and on leaving the field; the label floats above a paste', async () => {
    const { user, answers } = renderSchema(one({ type: 'string' }));
    const field = input();
    const label = document.querySelector('label[for="root_answer"]')!;
    field.focus();
    fireEvent.paste(field, { clipboardData: { getData: () => ' 10118 ' } });
    expect(field).toHaveValue('10118');
    fireEvent.blur(field);
    // No change event reached MUI: the label still knows the input holds text.
    expect(label).toHaveAttribute('data-shrink', 'true');
    await waitFor(() => expect(answers().answer).toBe('10118'));
    await user.clear(field);
    await user.type(field, '  New York ');
    expect(field).toHaveValue('  New York ');
    await user.tab();
    expect(field).toHaveValue('New York');
    await waitFor(() => expect(answers().answer).toBe('New York'));
  });
});
