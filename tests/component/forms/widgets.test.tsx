import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { regionChoices } from '../../../src/web/forms/countries';
import { field, renderForm } from './helpers';
import { schema, title } from './testForm';

const message = (key: string, rule: string) =>
  (schema.properties![key] as { errorMessage: Record<string, string> }).errorMessage[rule]!;

describe('SsnWidget', { timeout: 30_000 }, () => {
  it('formats NNN-NN-NNNN while typing, drops other characters, stops at 11', async () => {
    const { user, answers } = renderForm();
    const input = field(title('socialSecurityNumber'));
    await user.type(input, '12a3456789999');
    expect(input).toHaveValue('123-45-6789');
    expect(input).toHaveAttribute('maxlength', '11');
    await user.tab();
    await waitFor(() => expect(answers.current.socialSecurityNumber).toBe('123-45-6789'));
  });

  it('formats a paste', async () => {
    const { user } = renderForm();
    const input = field(title('socialSecurityNumber'));
    await user.click(input);
    await user.paste('123 45 6789');
    expect(input).toHaveValue('123-45-6789');
  });

  it('shows the schema message on blur, tied to the input', async () => {
    const { user } = renderForm();
    const input = field(title('socialSecurityNumber'));
    await user.type(input, '1234');
    expect(screen.queryByText(message('socialSecurityNumber', 'pattern'))).toBeNull();
    await user.tab();
    const error = await screen.findByText(message('socialSecurityNumber', 'pattern'));
    expect(input).toHaveAccessibleDescription(error.textContent!);
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('DateWidget', { timeout: 30_000 }, () => {
  it('adds slashes as digits arrive and accepts a one-digit month', async () => {
    const { user, answers } = renderForm();
    const input = field(title('dateOfBirth'));
    await user.type(input, '01312000');
    expect(input).toHaveValue('01/31/2000');
    await user.clear(input);
    await user.type(input, '1/5/2000');
    expect(input).toHaveValue('1/5/2000');
    await user.tab();
    await waitFor(() => expect(answers.current.dateOfBirth).toBe('1/5/2000'));
    expect(screen.queryByText(message('dateOfBirth', 'pattern'))).toBeNull();
  });

  it('formats a paste and shows the format message for an incomplete date', async () => {
    const { user } = renderForm();
    const input = field(title('dateOfBirth'));
    await user.click(input);
    await user.paste('1231');
    expect(input).toHaveValue('12/31');
    await user.tab();
    const error = await screen.findByText(message('dateOfBirth', 'pattern'));
    expect(input).toHaveAccessibleDescription(error.textContent!);
  });
});

describe('PhoneWidget', { timeout: 30_000 }, () => {
  it('prepends +, formats as typed, names the detected country, stores +digits', async () => {
    const { user, answers } = renderForm();
    const input = field(title('primaryPhoneNumber'));
    expect(input).toHaveAttribute('placeholder', '+1 123 456 7890');
    await user.type(input, '12125550142');
    expect(input).toHaveValue('+1 212 555 0142');
    expect(input).toHaveAccessibleDescription(/United States/);
    await user.tab();
    await waitFor(() => expect(answers.current.primaryPhoneNumber).toBe('+12125550142'));
  });

  it('formats a paste', async () => {
    const { user } = renderForm();
    const input = field(title('primaryPhoneNumber'));
    await user.click(input);
    await user.paste('44 20 7946 0958');
    expect(input).toHaveValue('+44 20 7946 0958');
    expect(input).toHaveAccessibleDescription(/United Kingdom/);
  });

  it('shows the schema message instead of the helper text', async () => {
    const { user } = renderForm();
    const input = field(title('primaryPhoneNumber'));
    await user.type(input, '1');
    await user.tab();
    const error = await screen.findByText(message('primaryPhoneNumber', 'minLength'));
    expect(input).toHaveAccessibleDescription(error.textContent!);
  });
});

describe('CountryWidget and RegionWidget', { timeout: 30_000 }, () => {
  const country = () => field(title('mailingAddress', 'country'));
  const region = () => field(title('mailingAddress', 'region'));

  it('defaults to the United States with its states', async () => {
    const { answers } = renderForm();
    expect(country()).toHaveValue('US');
    expect(within(region()).getByRole('option', { name: 'New York' })).toHaveValue('NY');
    await waitFor(() =>
      expect((answers.current.mailingAddress as Record<string, unknown>).country).toBe('US'),
    );
  });

  it('follows the chosen country and clears a region that is not in it', async () => {
    const { user, answers } = renderForm();
    await user.selectOptions(region(), 'NY');
    await user.selectOptions(country(), 'CA');
    await waitFor(() =>
      expect(within(region()).getByRole('option', { name: 'Ontario' })).toBeInTheDocument(),
    );
    expect(within(region()).queryByRole('option', { name: 'New York' })).toBeNull();
    await waitFor(() =>
      expect((answers.current.mailingAddress as Record<string, unknown>).region).toBeUndefined(),
    );
    await user.selectOptions(region(), 'ON');
    await waitFor(() =>
      expect(answers.current.mailingAddress).toMatchObject({ country: 'CA', region: 'ON' }),
    );
  });

  it('stores a region without a code by its name and never shows undefined', async () => {
    const { user, answers } = renderForm();
    await user.selectOptions(country(), 'CK');
    const first = regionChoices('CK')[0]!;
    expect(first.value).toBe(first.label);
    await waitFor(() =>
      expect(within(region()).getByRole('option', { name: first.label })).toBeInTheDocument(),
    );
    expect(within(region()).queryByText('undefined')).toBeNull();
    await user.selectOptions(region(), first.label);
    await waitFor(() =>
      expect(answers.current.mailingAddress).toMatchObject({ country: 'CK', region: first.label }),
    );
    for (const option of within(region()).getAllByRole('option')) {
      expect(option).not.toHaveValue('undefined');
    }
  });
});

describe('YesNoWidget', { timeout: 30_000 }, () => {
  it('answers a boolean and is labelled by the prompt', async () => {
    const { user, answers } = renderForm();
    const group = screen.getByRole('radiogroup', { name: title('marriedStatus') });
    await user.click(within(group).getByRole('radio', { name: 'Yes' }));
    await waitFor(() => expect(answers.current.marriedStatus).toBe(true));
    await user.click(within(group).getByRole('radio', { name: 'No' }));
    await waitFor(() => expect(answers.current.marriedStatus).toBe(false));
  });
});

describe('AgreementWidget', { timeout: 30_000 }, () => {
  it('starts unsigned, links the document, toggles with its buttons', async () => {
    const { user, answers } = renderForm();
    const row = screen.getByRole('group', { name: new RegExp(title('agreeTermsOfService')) });
    expect(within(row).getByRole('link', { name: title('agreeTermsOfService') })).toHaveAttribute(
      'href',
      (schema.properties!.agreeTermsOfService as Record<string, unknown>)['x-document'],
    );
    await user.click(within(row).getByRole('button', { name: 'Electronically Sign' }));
    await waitFor(() => expect(answers.current.agreeTermsOfService).toBe(true));
    await user.click(within(row).getByRole('button', { name: 'Remove Signature' }));
    await waitFor(() => expect(answers.current.agreeTermsOfService).toBe(false));
    const error = await screen.findByText(message('agreeTermsOfService', 'const'));
    expect(
      within(row).getByRole('button', { name: 'Electronically Sign' }),
    ).toHaveAccessibleDescription(new RegExp(error.textContent!));
  });

  it('can be signed from the keyboard', async () => {
    const { user, answers } = renderForm();
    const row = screen.getByRole('group', { name: new RegExp(title('agreeTermsOfService')) });
    within(row).getByRole('button', { name: 'Electronically Sign' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(answers.current.agreeTermsOfService).toBe(true));
  });
});

describe('ImageUploadWidget and PdfUploadWidget', { timeout: 30_000 }, () => {
  it('keeps the File out of the answers and hands it to onSubmit', async () => {
    const { user, answers, onSubmit } = renderForm();
    const photo = new File([new Uint8Array(2048)], 'front.png', { type: 'image/png' });
    const input = field(title('photoId'));
    expect(input).toHaveAttribute('accept', 'image/*');
    await user.upload(input, photo);
    await waitFor(() =>
      expect(answers.current.photoId).toEqual({ name: 'front.png', type: 'image/png', size: 2048 }),
    );
    expect(screen.getByText('front.png (2.0 KB)')).toBeInTheDocument();
    expect(JSON.stringify(answers.current)).not.toContain('data:');

    await user.type(field(title('firstName')), 'Ada');
    await user.type(field(title('socialSecurityNumber')), '123456789');
    await user.click(screen.getByRole('button', { name: 'Electronically Sign' }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const [submitted, files] = onSubmit.mock.calls[0]!;
    expect(submitted.photoId).toEqual({ name: 'front.png', type: 'image/png', size: 2048 });
    expect(files).toEqual({ '/photoId': photo });
  });

  it('removes the file, opens the dialog from a keyboard-reachable button', async () => {
    const { user, answers } = renderForm();
    const w2 = new File(['%PDF-1.4'], 'w2.pdf', { type: 'application/pdf' });
    const input = field(title('irsFormW2'));
    expect(input).toHaveAttribute('accept', 'application/pdf');
    const choose = screen.getByRole('button', { name: new RegExp(title('irsFormW2')) });
    let opened = false;
    input.addEventListener('click', () => (opened = true));
    choose.focus();
    await user.keyboard('{Enter}');
    expect(opened).toBe(true);
    await user.upload(input, w2);
    await waitFor(() => expect(answers.current.irsFormW2).toMatchObject({ name: 'w2.pdf' }));
    await user.click(screen.getByRole('button', { name: /Remove w2\.pdf/ }));
    await waitFor(() => expect(answers.current.irsFormW2).toBeUndefined());
    expect(screen.queryByText(/w2\.pdf/)).toBeNull();
  });

  it('shows the schema message for a missing file after submit, tied to the button', async () => {
    const { user } = renderForm();
    fireEvent.submit(screen.getByRole('button', { name: 'Send' }).closest('form')!);
    const text = (schema.errorMessage as { required: Record<string, string> }).required.photoId!;
    await screen.findByText(text);
    expect(
      screen.getByRole('button', { name: new RegExp(title('photoId')) }),
    ).toHaveAccessibleDescription(text);
    void user;
  });
});
