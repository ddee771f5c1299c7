import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FormStatus } from '../../../src/web/forms/formStatus';
import { field, renderForm, renderQuestions } from './helpers';
import { exampleAnswers, exampleWithout, messageFor, requiredMessage, title } from './testForm';

const ssnPattern = messageFor({ socialSecurityNumber: '12' }, '/socialSecurityNumber');

describe('SchemaForm validation on blur', { timeout: 30_000 }, () => {
  it('shows no error on an untouched required field when another field is left', async () => {
    const { user } = renderQuestions(['socialSecurityNumber', 'firstName']);
    await user.type(field(title('socialSecurityNumber')), '12');
    await user.tab();
    await screen.findByText(ssnPattern);
    expect(screen.queryByText(requiredMessage('firstName'))).toBeNull();
    expect(field(title('firstName'))).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('shows a required message once the field is left empty, tied to the input', async () => {
    const { user } = renderQuestions(['firstName']);
    const input = field(title('firstName'));
    await user.click(input);
    await user.tab();
    const error = await screen.findByText(requiredMessage('firstName'));
    expect(input).toHaveAccessibleDescription(error.textContent!);
    await user.type(input, 'Ada');
    // still shown while typing: validation runs when the field is left
    expect(screen.getByText(requiredMessage('firstName'))).toBeInTheDocument();
    await user.tab();
    await waitFor(() => expect(screen.queryByText(requiredMessage('firstName'))).toBeNull());
  });

  it('marks every field touched on a submit attempt and focuses the first error', async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText(requiredMessage('firstName'));
    expect(screen.getByText(requiredMessage('socialSecurityNumber'))).toBeInTheDocument();
    expect(screen.getByText(requiredMessage('agreeTermsOfService'))).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    await waitFor(() => expect(field(title('firstName'))).toHaveFocus());
  });

  it('leaves answers hidden by a condition out of the submission', async () => {
    const { user, onSubmit } = renderQuestions(['employmentStatus'], {
      formData: exampleAnswers(),
    });
    const status = field(title('employmentStatus'));
    expect(status).toHaveValue('Employed');
    expect(field(title('employerName'))).toHaveValue(String(exampleAnswers().employerName));
    await user.selectOptions(status, 'Retired');
    await waitFor(() => expect(screen.queryByLabelText(/Employer name/)).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const [answers] = onSubmit.mock.calls[0]!;
    expect(answers).toMatchObject({
      firstName: exampleAnswers().firstName,
      employmentStatus: 'Retired',
    });
    expect(answers).not.toHaveProperty('employerName');
    expect(answers).not.toHaveProperty('employerAddress');
  });

  it('shows extraErrors (from the server) without a touch', () => {
    renderQuestions(['firstName'], {
      extraErrors: { firstName: { __errors: ['Contains invalid characters'] } },
    });
    expect(field(title('firstName'))).toHaveAccessibleDescription('Contains invalid characters');
  });
});

describe('SchemaForm status', { timeout: 30_000 }, () => {
  it('reports invalid/unchanged, then valid and changed, then submitting', async () => {
    const statuses: FormStatus[] = [];
    let release: () => void = () => {};
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    const { user } = renderForm({
      formData: exampleWithout('firstName', 'socialSecurityNumber'),
      onStatusChange: (s) => statuses.push(s),
      onSubmit,
    });
    const last = () => statuses.at(-1)!;
    await waitFor(() =>
      expect(last()).toMatchObject({ valid: false, dirty: false, canSubmit: false }),
    );
    await user.type(field(title('firstName')), 'Ada');
    await user.type(field(title('socialSecurityNumber')), '123456789');
    await user.tab();
    await waitFor(() =>
      expect(last()).toMatchObject({ valid: true, dirty: true, canSubmit: true }),
    );
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(last()).toMatchObject({ submitting: true, canSubmit: false }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    release();
    await waitFor(() => expect(last()).toMatchObject({ submitting: false, dirty: false }));
  });

  it('renders a default submit button enabled only when it can submit', async () => {
    const { user } = renderForm({ children: undefined, formData: exampleAnswers() });
    const submit = screen.getByRole('button', { name: 'Submit' });
    // Valid but unchanged: the spec disables an unchanged form.
    expect(submit).toBeDisabled();
    await user.type(field(title('lastName')), 'x');
    await user.tab();
    await waitFor(() => expect(submit).toBeEnabled());
    // Back to the answers it started from: valid, unchanged, disabled again.
    await user.type(field(title('lastName')), '{Backspace}');
    await user.tab();
    await waitFor(() => expect(submit).toBeDisabled());
    await user.type(field(title('lastName')), 'x');
    await user.tab();
    await waitFor(() => expect(submit).toBeEnabled());
    // Changed but invalid.
    await user.clear(field(title('firstName')));
    await user.tab();
    await waitFor(() => expect(submit).toBeDisabled());
  });

  it('review mode shows answers read-only', () => {
    // The agreements' section too: it is where the Electronically Sign buttons would be.
    renderQuestions(['firstName', 'photoId', 'agreeTermsOfService'], {
      readonly: true,
      formData: { firstName: 'Ada', photoId: { name: 'id.png', type: 'image/png', size: 3 } },
    });
    expect(field(title('firstName'))).toHaveAttribute('readonly');
    expect(screen.getByText('id.png (3 B)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Electronically Sign' })).toBeNull();
  });
});
