/**
 * Forms nobody here wrote (issue 25 §2), drawn by SchemaForm with the validator the browser build
 * makes (Ajv standalone code, as `forms check` builds it): a small form of its own for each.
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { checkForms } from '../../../src/shared/forms/check/checkForms';
import { browserForm } from '../../../src/shared/forms/check/checkBuild';
import type { JsonSchema } from '../../../src/shared/forms/model/schemaTypes';
import { draftSafeAnswers } from '../../../src/shared/forms/walk/answers';
import { questionAt } from '../../../src/shared/forms/walk/changeScope';
import { SchemaForm, type Answers } from '../../../src/web/forms/SchemaForm';
import { FormSession } from '../../../src/web/forms/session';

const MESSAGES = {
  type: 'Please check',
  required: 'Please answer',
  oneOf: 'Choose one',
  anyOf: 'Choose one',
  enum: 'Choose one of the list',
};

function draw(
  schema: JsonSchema,
  example: Answers,
  uiSchema: Record<string, unknown> = {},
  formData?: Answers,
) {
  const { problems, forms } = checkForms({
    forms: { sample: { schema: { 'x-messages': MESSAGES, ...schema }, uiSchema, example } },
    commons: {},
  });
  expect(problems).toEqual([]);
  const form = browserForm(forms.get('sample')!);
  const onSubmit = vi.fn(async (_answers: Answers) => {});
  render(
    <SchemaForm form={form} keepDraft={false} formData={formData} onSubmit={onSubmit}>
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

  it('3: an answer of a root oneOf option is named by its prompt with the browser validator (the leave warning lists it)', async () => {
    const { problems, forms } = checkForms({
      forms: {
        sample: {
          schema: {
            'x-messages': { ...MESSAGES, pattern: 'Please check the format' },
            type: 'object',
            oneOf: [
              {
                title: 'By name',
                properties: { lorem: { type: 'string', title: 'Name', pattern: '^[A-Z]' } },
                required: ['lorem'],
              },
              {
                title: 'By code',
                properties: {
                  ipsum: { type: 'string', title: 'Code', pattern: '^X', 'x-sensitive': true },
                },
                required: ['ipsum'],
              },
            ],
          },
          uiSchema: {},
          example: { lorem: 'Ab' },
        },
      },
      commons: {},
    });
    expect(problems).toEqual([]);
    const form = browserForm(forms.get('sample')!);
    // The options are no simple conditions: the walker asks the precompiled validator, which
    // has no function for an option as written and threw "No precompiled validator function".
    expect(questionAt(form, { ipsum: 'X1' }, '/ipsum')?.prompt).toBe('Code');
    const session = new FormSession({ form });
    session.focused();
    session.commit({ ipsum: 'X1' });
    await waitFor(() => expect(session.status.get().dirty).toBe(true));
    expect(session.unkeptAnswers((answers) => draftSafeAnswers(form, answers))).toEqual(['Code']);
  });

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

  const TAGS: JsonSchema = {
    type: 'object',
    properties: {
      tags: {
        type: 'object',
        title: 'Tags',
        properties: { main: { type: 'string', title: 'Main tag' } },
        patternProperties: { '^x-[a-z]+$': { type: 'string', title: 'Extra tag' } },
        additionalProperties: false,
        errorMessage: { additionalProperties: 'A key is x- and small letters' },
      },
    },
  };

  it('4: declared questions keep their names; an added key is checked at its row, renamed with its answer, and sent', async () => {
    const onSubmit = draw(TAGS, { tags: { main: 'm', 'x-a': 'b' } });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /Main tag/ }), 'Blue');
    // The declared question: no key box, no remove button.
    expect(screen.queryByRole('textbox', { name: 'Key for Main tag' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove main' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add Item' }));
    // rjsf's 'newKey' breaks the pattern: the engine names it by the pattern.
    const key = await screen.findByRole('textbox', { name: 'Key for Extra tag' });
    expect(key).toHaveValue('x-new');
    await user.type(document.getElementById('root_tags_x-new')!, 'Teal');
    // A key that breaks the pattern is not taken: the form's message at the row.
    await user.clear(key);
    await user.type(key, 'Bad Key');
    await user.tab();
    expect(await screen.findByText('A key is x- and small letters')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Key for Extra tag' })).toHaveValue('x-new');
    // Renamed, the answer goes with it.
    const again = screen.getByRole('textbox', { name: 'Key for Extra tag' });
    await user.clear(again);
    await user.type(again, 'x-colour');
    await user.tab();
    await waitFor(() => expect(document.getElementById('root_tags_x-colour')).toHaveValue('Teal'));
    expect(screen.queryByText('A key is x- and small letters')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]![0]).toStrictEqual({
      tags: { main: 'Blue', 'x-colour': 'Teal' },
    });
  });

  const CODES: JsonSchema = {
    type: 'object',
    properties: {
      codes: {
        type: 'object',
        title: 'Codes',
        patternProperties: { '^[A-Z]{3}$': { type: 'string', title: 'Code' } },
        additionalProperties: false,
        errorMessage: { additionalProperties: 'A code is three capital letters' },
      },
    },
  };

  it('4: a pattern no key can be made from: Add draws a row whose key the person names, nothing sent before', async () => {
    const onSubmit = draw(CODES, { codes: { USD: 'a' } });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add Item' }));
    // An empty key box, with the form's message for a key it refuses, until the key is valid.
    const key = await screen.findByRole('textbox', { name: 'Key' });
    expect(key).toHaveValue('');
    expect(screen.getByText('A code is three capital letters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    // The row without a key is not sent.
    expect(Object.keys((onSubmit.mock.calls[0]![0].codes ?? {}) as object)).toEqual([]);
    await user.type(screen.getByRole('textbox', { name: 'Key' }), 'eu');
    await user.tab();
    expect(await screen.findByText('A code is three capital letters')).toBeInTheDocument();
    const again = screen.getByRole('textbox', { name: 'Key' });
    await user.clear(again);
    await user.type(again, 'EUR');
    await user.tab();
    await waitFor(() => expect(document.getElementById('root_codes_EUR')).not.toBeNull());
    expect(screen.queryByText('A code is three capital letters')).toBeNull();
    await user.type(document.getElementById('root_codes_EUR')!, 'Teal');
    await user.tab();
    expect(document.getElementById('root_codes_EUR')).toHaveValue('Teal');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(2));
    expect(onSubmit.mock.calls[1]![0]).toStrictEqual({ codes: { EUR: 'Teal' } });
  });

  const COLOURS: JsonSchema = {
    type: 'object',
    properties: {
      colours: {
        type: 'object',
        title: 'Colours',
        propertyNames: { enum: ['red', 'green'] },
        additionalProperties: { type: 'string', title: 'Shade' },
        errorMessage: { propertyNames: 'Choose red or green' },
      },
    },
  };

  it('7: propertyNames with an enum: the key is a choice among them', async () => {
    const onSubmit = draw(COLOURS, { colours: { red: 'dark' } });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add Item' }));
    const key = await screen.findByRole('combobox', { name: 'Key for Shade' });
    expect(key).toHaveTextContent('red');
    await user.click(key);
    await user.click(screen.getByRole('option', { name: 'green' }));
    await waitFor(() => expect(document.getElementById('root_colours_green')).not.toBeNull());
    await user.type(document.getElementById('root_colours_green')!, 'light');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]![0]).toStrictEqual({ colours: { green: 'light' } });
  });

  it('7: a key propertyNames does not list is refused at its row, not at the form', async () => {
    const onSubmit = draw(COLOURS, { colours: { red: 'dark' } }, {}, { colours: { blue: 'x' } });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    // The key's own failure (the enum of propertyNames: the form's message for it).
    const message = await screen.findByText('Choose one of the list');
    // At the row of 'blue': the same field as its answer's input.
    const row = document.getElementById('root_colours_blue')!.closest('.MuiFormControl-root')!;
    expect(row.parentElement!.parentElement!.contains(message)).toBe(true);
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
