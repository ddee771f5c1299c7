import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { deref } from '../../../src/shared/forms/walk/schemaWalk';
import type { JsonSchema } from '../../../src/shared/forms/model/schemaTypes';
import { validateAnswers } from '../../../src/shared/forms/validation/validateAnswers';
import { DRAFT_PREFIX } from '../../../src/web/forms/drafts';
import { SchemaForm, type Answers } from '../../../src/web/forms/SchemaForm';
import { field } from './helpers';
import { testForm } from '../../forms';

/** The engine's individual form rendered by SchemaForm: prompts and messages come from it. */
let form: ReturnType<typeof testForm>;

beforeAll(() => {
  form = testForm('individual');
});

const prompt = (key: string) => {
  const property = form.schema.properties![key] as JsonSchema | undefined;
  return (property && deref(property, form.schema).title) ?? key;
};
const messageFor = (answers: Answers, pointer: string) =>
  validateAnswers(testForm('individual'), answers).errors.find((e) => e.path === pointer)!.message;

function renderIndividual() {
  const user = userEvent.setup();
  render(<SchemaForm form={form} onSubmit={vi.fn()} />);
  return { user };
}

// user-event typing into MUI inputs is slow on a busy 2-core machine
describe('the individual form in SchemaForm', { timeout: 30_000 }, () => {
  it('shows the SSN message on blur only, not the untouched first name', async () => {
    const { user } = renderIndividual();
    const ssn = field(prompt('socialSecurityNumber'));
    await user.type(ssn, '1234');
    expect(ssn).toHaveValue('123-4');
    await user.tab();
    const expected = messageFor({ socialSecurityNumber: '123-4' }, '/socialSecurityNumber');
    await screen.findByText(expected);
    expect(ssn).toHaveAccessibleDescription(expected);
    const firstNameMissing = messageFor({}, '/firstName');
    expect(screen.queryByText(firstNameMissing)).toBeNull();
  });

  it('keeps the SSN and date of birth out of the draft (engine draftSafeAnswers by default)', async () => {
    const { user } = renderIndividual();
    await user.type(field(prompt('firstName')), 'Ada');
    await user.type(field(prompt('socialSecurityNumber')), '123456789');
    await user.type(field(prompt('dateOfBirth')), '01312000');
    await user.tab();
    await waitFor(() => expect(localStorage.getItem(`${DRAFT_PREFIX}individual`)).toContain('Ada'));
    const draft = localStorage.getItem(`${DRAFT_PREFIX}individual`)!;
    expect(draft).not.toContain('123-45-6789');
    expect(draft).not.toContain('01/31/2000');
  });

  it('starts every yes/no question and choice unanswered, and asks for them on submit', async () => {
    const user = userEvent.setup();
    render(
      <SchemaForm form={form} onSubmit={vi.fn()}>
        <button type="submit">Send</button>
      </SchemaForm>,
    );
    const married = screen.getByRole('radiogroup', { name: prompt('marriedStatus') });
    for (const radio of within(married).getAllByRole('radio')) expect(radio).not.toBeChecked();
    const income = screen.getByRole('combobox', { name: prompt('annualIncome') });
    expect(income).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText(messageFor({}, '/marriedStatus'));
    expect(screen.getByText(messageFor({}, '/annualIncome'))).toBeInTheDocument();
    await user.selectOptions(income, 'IncomeBracket100000OrOver');
    expect(income).toHaveValue('IncomeBracket100000OrOver');
  });
});
