/**
 * Change mode (issue 17): the business form reopened for the changes staff asked for. The
 * marked questions are editable and outlined with the reviewer's note, every other answer is
 * read-only, a list row holding a marked answer opens with only that answer editable, and rows
 * are neither added nor removed; a request with a note alone leaves every answer editable.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { stepsOf } from '../../../src/shared/forms/model/steps';
import { ChangeMode, type RequestedChangeView } from '../../../src/web/forms/changeModeModel';
import { FormWizard } from '../../../src/web/forms/FormWizard';
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
  const answers = submitted();
  const session = new FormSession({
    form,
    initial: answers,
    changeMode: new ChangeMode(form, answers, note, fields),
  });
  session.goTo(stepsOf(form.uiSchema)!.findIndex((step) => step.id === 'business'));
  render(
    <SchemaForm keepDraft={false} session={session} formData={answers} onSubmit={vi.fn()}>
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
    expect(document.getElementById('root_certificateOfInc')).toBeNull();
    expect(document.querySelectorAll('[data-requested-change]')).toHaveLength(1);
  });

  it('draws the answers that cannot change as the review does: text, no input to focus or type into (issue 26 §2)', async () => {
    renderChangeMode(REQUESTED);
    const bizName = await waitFor(() => {
      const found = document.querySelector('[data-read-only-answer="/bizName"]');
      if (!found) throw new Error('no business name');
      return found as HTMLElement;
    });
    const form = testForm('business');
    const title = (key: string) => (form.schema.properties![key] as { title: string }).title;
    expect(within(bizName).getByRole('term')).toHaveTextContent(title('bizName'));
    expect(within(bizName).getByRole('definition')).toHaveTextContent('Granite Ridge Mining Co.');
    // No input for it, and none for an unmarked file: nothing takes focus or a keystroke.
    expect(document.getElementById('root_bizName')).toBeNull();
    expect(screen.queryByRole('textbox', { name: title('bizName') })).toBeNull();
    const certificate = document.querySelector('[data-read-only-answer="/certificateOfInc"]');
    expect(certificate).toHaveTextContent('certificate.pdf');
    expect(within(certificate as HTMLElement).queryByRole('button')).toBeNull();
    // The marked answer is an input, with the reviewer's note beside it.
    const box = document.querySelector(`[data-requested-change="${W8}"]`) as HTMLElement;
    expect(within(box).getByText(/The scan is blurred/)).toBeVisible();
    expect(byId('root_w8orw9')).not.toBeDisabled();
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
    expect(screen.queryByRole('button', { name: 'Add a DBA name' })).toBeNull();

    await user.click(within(marked).getByRole('button', { name: /Edit/ }));
    const dialog = await screen.findByRole('dialog');
    const outlined = dialog.querySelector(`[data-requested-change="${PASSPORT_COUNTRY}"]`);
    expect(outlined).toHaveTextContent('Issued by New Zealand.');
    expect(byId('root_affiliatedPersons_1_passportCountryOfIssuance')).not.toBeDisabled();
    // The person's other answers read as text in the dialog too.
    expect(document.getElementById('root_affiliatedPersons_1_firstName')).toBeNull();
    expect(
      dialog.querySelector('[data-read-only-answer="/affiliatedPersons/1/firstName"]'),
    ).toHaveTextContent('Amelia');
  });

  it('with a note alone, every answer may change', async () => {
    renderChangeMode([], 'Please check everything again.');
    await waitFor(() => expect(byId('root_bizName')).not.toHaveAttribute('readonly'));
    expect(byId('root_certificateOfInc')).not.toBeDisabled();
    expect(screen.getAllByRole('button', { name: /Remove/ }).length).toBeGreaterThan(0);
  });

  it('the wizard in change mode offers no Reset Form, and its sections mark the requested changes, not Complete (issue 26 §2)', async () => {
    const { session } = renderChangeModeWizard(REQUESTED);
    await screen.findByRole('heading', { name: 'Business Details', level: 2 });
    expect(screen.queryByRole('button', { name: 'Reset Form' })).toBeNull();
    const sections = screen.getByRole('navigation', { name: 'Sections' });
    const stateOf = (title: string) =>
      within(sections).getByRole('link', { name: title }).parentElement!.textContent;
    expect(stateOf('Tax information')).toBe('Tax information1 change requested');
    expect(stateOf('Affiliated persons')).toBe('Affiliated persons1 change requested');
    expect(stateOf('Website')).toBe('WebsiteComplete');

    // A file still being sent: its section is not complete until the upload ends.
    act(() => session.engine.uploads.set('/website', { kind: 'uploading', sent: 8, total: 100 }));
    expect(stateOf('Website')).toBe('WebsiteUploading a file');
    act(() => session.engine.uploads.set('/website', undefined));
    expect(stateOf('Website')).toBe('WebsiteComplete');
  });

  it('two requested changes in one section are counted', async () => {
    renderChangeModeWizard([
      ...REQUESTED,
      { path: '/affiliatedPersons/0/title', prompt: 'Affiliated person 1: Title', note: 'CEO?' },
    ]);
    const sections = await screen.findByRole('navigation', { name: 'Sections' });
    expect(
      within(sections).getByRole('link', { name: 'Affiliated persons' }).parentElement,
    ).toHaveTextContent('2 changes requested');
  });
});

/** The business wizard in change mode, opened on Business Details. */
function renderChangeModeWizard(fields: RequestedChangeView[]) {
  const form = testForm('business');
  const answers = submitted();
  const session = new FormSession({
    form,
    initial: answers,
    changeMode: new ChangeMode(form, answers, null, fields),
  });
  session.goTo(stepsOf(form.uiSchema)!.findIndex((step) => step.id === 'business'));
  const router = createMemoryRouter(
    [{ path: '/form', element: <FormWizard session={session} onSubmit={vi.fn()} /> }],
    { initialEntries: ['/form'] },
  );
  render(<RouterProvider router={router} />);
  return { session };
}
