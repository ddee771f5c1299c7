/**
 * Change mode (issue 17): the business form reopened for the changes staff asked for. The
 * marked questions are editable and outlined with the reviewer's note, every other answer is
 * read-only, a list row holding a marked answer opens with only that answer editable, and rows
 * are neither added nor removed; a request with a note alone leaves every answer editable.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { stepsOf } from '../../../src/shared/forms/model/steps';
import { createRjsfValidator } from '../../../src/shared/forms/validation/rjsfErrors';
import { ChangeMode, type RequestedChangeView } from '../../../src/web/forms/changeMode';
import { SchemaForm } from '../../../src/web/forms/SchemaForm';
import { FormSession, type Answers } from '../../../src/web/forms/session';
import { testForm } from '../../forms';

const W8 = '/w8orw9';
const PASSPORT_COUNTRY = '/affiliatedPersons/1/passportCountryOfIssuance';
const REQUESTED: RequestedChangeView[] = [
  { path: W8, prompt: 'Tax information', note: 'The scan is blurred.' },
  {
    path: PASSPORT_COUNTRY,
    prompt: 'Affiliated person 2: Passport country of issuance',
    note: 'Issued by New Zealand.',
  },
];

/** The submitted answers: the example with its files as references. */
function submitted(): Answers {
  const form = testForm('business');
  return {
    ...structuredClone(form.example as Answers),
    w8orw9: { name: 'w8.pdf', type: 'application/pdf', size: 1000 },
    certificateOfInc: { name: 'certificate.pdf', type: 'application/pdf', size: 1000 },
  };
}

/** The Business Details step in change mode. */
function renderChangeMode(fields: RequestedChangeView[], note: string | null = null) {
  const form = testForm('business');
  const schema = form.schema as RJSFSchema;
  const validator = createRjsfValidator(form);
  const answers = submitted();
  const session = new FormSession({
    formId: 'business',
    form,
    schema,
    uiSchema: form.uiSchema,
    validator,
    initial: answers,
    changeMode: new ChangeMode(form, answers, note, fields),
  });
  session.goTo(stepsOf(form.uiSchema)!.findIndex((step) => step.id === 'business'));
  render(
    <SchemaForm
      formId="business"
      keepDraft={false}
      session={session}
      schema={schema}
      uiSchema={form.uiSchema}
      validator={validator}
      formData={answers}
      onSubmit={vi.fn()}
    >
      <button type="submit">Send</button>
    </SchemaForm>,
  );
  return { user: userEvent.setup(), session };
}

const byId = (id: string) => document.getElementById(id)!;

describe('change mode', { timeout: 60_000 }, () => {
  it('outlines the marked questions with their notes and leaves every other answer read-only', async () => {
    renderChangeMode(REQUESTED);
    const box = await waitFor(() => {
      const found = document.querySelector(`[data-requested-change="${W8}"]`);
      if (!found) throw new Error('no outlined tax form');
      return found as HTMLElement;
    });
    expect(box).toHaveTextContent('Change requested: The scan is blurred.');
    // The marked file may be replaced; an unmarked one may not.
    expect(within(box).getByText(/^w8\.pdf/)).toBeInTheDocument();
    expect(byId('root_w8orw9')).not.toBeDisabled();
    expect(byId('root_certificateOfInc')).toBeDisabled();
    expect(byId('root_bizName')).toHaveAttribute('readonly');
    expect(document.querySelectorAll('[data-requested-change]')).toHaveLength(1);
  });

  it('opens only the row holding a marked answer, with only that answer editable; no adding or removing', async () => {
    const { user } = renderChangeMode(REQUESTED);
    const rows = await screen.findAllByRole('row');
    const marked = rows.find((row) => row.textContent?.includes('Change requested'))!;
    expect(marked).toHaveTextContent('Amelia');
    const other = rows.find((row) => row.textContent?.includes('Daniel'))!;
    expect(within(other).queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(within(marked).queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add affiliated person' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add a DBA name' })).toBeDisabled();

    await user.click(within(marked).getByRole('button', { name: /Edit/ }));
    const dialog = await screen.findByRole('dialog');
    const outlined = dialog.querySelector(`[data-requested-change="${PASSPORT_COUNTRY}"]`);
    expect(outlined).toHaveTextContent('Issued by New Zealand.');
    expect(byId('root_affiliatedPersons_1_passportCountryOfIssuance')).not.toBeDisabled();
    expect(byId('root_affiliatedPersons_1_firstName')).toHaveAttribute('readonly');
  });

  it('with a note alone, every answer may change', async () => {
    renderChangeMode([], 'Please check everything again.');
    await waitFor(() => expect(byId('root_bizName')).not.toHaveAttribute('readonly'));
    expect(byId('root_certificateOfInc')).not.toBeDisabled();
    expect(screen.getAllByRole('button', { name: /Remove/ }).length).toBeGreaterThan(0);
  });
});
