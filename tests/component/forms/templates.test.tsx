import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { field, renderForm } from './helpers';
import { INPUT_WIDTHS } from '../../../src/web/forms/templates/FieldTemplate';
import { requiredMessage, title, uiSchema } from './testForm';
import { formOf } from '../../forms';

/** The element the field template draws around a field's widget. */
const wrapperOf = (input: HTMLElement) => input.closest<HTMLElement>('.rjsf-field')!;

describe('field and object templates', { timeout: 30_000 }, () => {
  it('draws one wrapper per field, the question skipped while far off screen', () => {
    renderForm();
    const question = wrapperOf(field(title('firstName')));
    expect(question).toHaveClass('MuiFormControl-root', 'rjsf-field-string');
    expect(question.style.contentVisibility).toBe('auto');
    // the widget's own FormControl sits directly inside: no Grid item or extra div between
    const widgetControl = field(title('firstName')).closest('.MuiFormControl-root')!;
    expect(widgetControl.parentElement).toBe(question);
    expect(document.querySelector('.MuiGrid-root')).toBeNull();
  });

  it('keeps the skip on questions only, not on the fields of an object', () => {
    renderForm();
    const line1 = wrapperOf(field('Street address'));
    expect(line1.style.contentVisibility).toBe('');
    const address = line1.parentElement!.closest<HTMLElement>('.rjsf-field')!;
    expect(address).toHaveClass('rjsf-field-object');
    expect(address.style.contentVisibility).toBe('auto');
    expect(screen.getByText('Current mailing address')).toBeInTheDocument();
  });

  it('gives short answers short inputs and keeps the questions about 800 px wide', () => {
    renderForm();
    for (const path of [
      ['dateOfBirth'],
      ['socialSecurityNumber'],
      ['mailingAddress', 'postalCode'],
    ]) {
      expect(wrapperOf(field(title(...path))).style.maxWidth).toBe(INPUT_WIDTHS.short);
    }
    expect(wrapperOf(field(title('primaryPhoneNumber'))).style.maxWidth).toBe(INPUT_WIDTHS.medium);
    const firstName = wrapperOf(field(title('firstName')));
    expect(firstName.style.maxWidth).toBe('');
    // The root's fields: the uiSchema's maxWidth (spec §9), so the business wizard gets it too.
    expect(firstName.parentElement!.style.maxWidth).toBe(
      `${(uiSchema['ui:options'] as { maxWidth: number }).maxWidth}px`,
    );
    expect((uiSchema['ui:options'] as { maxWidth: number }).maxWidth).toBe(800);
  });

  it('colours a shown error as an error and ties it to the input', async () => {
    const { user } = renderForm();
    const input = field(title('firstName'));
    await user.click(input);
    await user.tab();
    const message = await screen.findByText(requiredMessage('firstName'));
    expect(message).toHaveClass('Mui-error');
    expect(input).toHaveAccessibleDescription(requiredMessage('firstName'));
  });

  it('shows a field description', () => {
    renderForm({
      form: formOf({
        schema: {
          type: 'object',
          properties: { nickname: { type: 'string', title: 'Nickname', description: 'Optional' } },
        },
      }),
    });
    expect(screen.getByText('Optional')).toBeInTheDocument();
  });

  it('draws a long prompt above its input, whole, and a short one inside the outline', () => {
    const long =
      'Futures commission merchant the entity clears through (self-clearing firms give their own name)';
    renderForm({
      form: formOf({
        schema: {
          type: 'object',
          required: ['fcm'],
          properties: {
            fcm: { type: 'string', title: long },
            nickname: { type: 'string', title: 'Nickname' },
            // 33 characters: long for a short input (18rem), not for a full-width one.
            unit: { type: 'string', title: 'Apartment, suite, unit (optional)' },
            line2: { type: 'string', title: 'Apartment, suite, unit (optional)' },
            // A select's outline holds one line of prompt as a text input's does.
            purpose: {
              type: 'string',
              title: 'Principal business purpose (trading intentions)',
              enum: ['Hedging', 'Speculation'],
            },
            kind: { type: 'string', title: 'Kind of account', enum: ['Cash', 'Margin'] },
          },
        },
        uiSchema: { unit: { 'ui:options': { width: 'short' } } },
      }),
    });
    // Above: a label of its own before the input (one line of outline cannot hold it), the
    // input named by it, and no prompt in the outline's notch.
    const above = (id: string, prompt: string) => {
      const label = document.querySelector<HTMLLabelElement>(`label[for="${id}"]`)!;
      const outlined = document.getElementById(id)!.closest('.MuiTextField-root')!;
      expect(
        label.compareDocumentPosition(outlined) & Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy();
      expect(outlined).not.toContainElement(label);
      expect(outlined.querySelector('legend')).not.toHaveTextContent(prompt);
    };
    expect(field(long)).toHaveAttribute('id', 'root_fcm');
    expect(document.querySelector('label[for="root_fcm"]')).toHaveTextContent(`${long} *`);
    above('root_fcm', long);
    above('root_unit', 'Apartment');
    above('root_purpose', 'Principal business purpose');
    expect(document.querySelector('label[for="root_purpose"]')).toHaveTextContent(
      'Principal business purpose (trading intentions)',
    );
    // Inside: MUI's floating label and the notch that makes room for it.
    for (const [id, prompt] of [
      ['root_nickname', 'Nickname'],
      ['root_line2', 'Apartment, suite, unit (optional)'],
      ['root_kind', 'Kind of account'],
    ] as const) {
      const outlined = document.getElementById(id)!.closest('.MuiTextField-root')!;
      expect(outlined.querySelector(`label[for="${id}"]`)).toHaveTextContent(prompt);
      expect(outlined.querySelector('legend')).toHaveTextContent(prompt);
    }
  });

  it('draws a key box and a remove button for the keys of an additionalProperties map', async () => {
    renderForm({
      form: formOf({
        schema: { type: 'object', title: 'Tags', additionalProperties: { type: 'string' } },
      }),
      formData: { colour: 'blue' },
    });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Key' })).toHaveValue('colour'));
    expect(screen.getByRole('button', { name: 'Remove colour' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /add/i })).toBeInTheDocument();
  });
});
