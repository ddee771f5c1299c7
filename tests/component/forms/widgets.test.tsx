import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { regionChoices } from '../../../src/web/forms/countries';
import { formatInternational } from '../../../src/web/forms/format';
import { field, renderQuestions } from './helpers';
import {
  exampleWithout,
  FILE_STARTS,
  messageFor,
  requiredMessage,
  schema,
  title,
} from './testForm';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the user sees after pasting `text` into `input` (fireEvent: user-event keeps maxLength). */
function paste(input: HTMLElement, text: string) {
  (input as HTMLInputElement).focus();
  fireEvent.paste(input, { clipboardData: { getData: () => text } });
}

describe('SsnWidget', { timeout: 30_000 }, () => {
  it('formats NNN-NN-NNNN while typing, drops other characters, stops at 11', async () => {
    const { user, answers } = renderQuestions(['socialSecurityNumber']);
    const input = field(title('socialSecurityNumber'));
    await user.type(input, '12a3456789999');
    expect(input).toHaveValue('123-45-6789');
    expect(input).toHaveAttribute('maxlength', '11');
    await user.tab();
    await waitFor(() => expect(answers.current.socialSecurityNumber).toBe('123-45-6789'));
  });

  it.each([' 987 65 4321 ', 'SSN: 987-65-4321', '987654321', 'ssn 987.65.4321 (mine)'])(
    'takes any paste holding nine digits whole: %j',
    async (text) => {
      const { answers } = renderQuestions(['socialSecurityNumber']);
      const input = field(title('socialSecurityNumber'));
      paste(input, text);
      expect(input).toHaveValue('987-65-4321');
      fireEvent.blur(input);
      await waitFor(() => expect(answers.current.socialSecurityNumber).toBe('987-65-4321'));
    },
  );

  it('shows the schema message on blur, tied to the input', async () => {
    const { user } = renderQuestions(['socialSecurityNumber']);
    const input = field(title('socialSecurityNumber'));
    const expected = messageFor({ socialSecurityNumber: '123-4' }, '/socialSecurityNumber');
    await user.type(input, '1234');
    expect(screen.queryByText(expected)).toBeNull();
    await user.tab();
    const error = await screen.findByText(expected);
    expect(input).toHaveAccessibleDescription(error.textContent!);
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('DateWidget', { timeout: 30_000 }, () => {
  const dob = () => field(title('dateOfBirth'));
  const dobMessage = (value: string) => messageFor({ dateOfBirth: value }, '/dateOfBirth');

  it('adds slashes as digits arrive and accepts a one-digit month', async () => {
    const { user, answers } = renderQuestions(['dateOfBirth']);
    await user.type(dob(), '01312000');
    expect(dob()).toHaveValue('01/31/2000');
    await user.clear(dob());
    await user.type(dob(), '1/5/2000');
    expect(dob()).toHaveValue('1/5/2000');
    await user.tab();
    await waitFor(() => expect(answers.current.dateOfBirth).toBe('1/5/2000'));
    expect(dob()).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('formats a paste and shows the format message for an incomplete date', async () => {
    const { user } = renderQuestions(['dateOfBirth']);
    await user.click(dob());
    await user.paste('1231');
    expect(dob()).toHaveValue('12/31');
    await user.tab();
    const error = await screen.findByText(dobMessage('12/31'));
    expect(dob()).toHaveAccessibleDescription(error.textContent!);
  });

  it('converts a date typed or pasted year first (ISO)', async () => {
    const { user, answers } = renderQuestions(['dateOfBirth']);
    await user.type(dob(), '1988-04-15');
    expect(dob()).toHaveValue('04/15/1988');
    await user.clear(dob());
    paste(dob(), ' 1988-04-15 ');
    expect(dob()).toHaveValue('04/15/1988');
    await user.tab();
    await waitFor(() => expect(answers.current.dateOfBirth).toBe('04/15/1988'));
  });

  it('says a well-formed date that does not exist is not a date, not a format error', async () => {
    const { user } = renderQuestions(['dateOfBirth']);
    await user.type(dob(), '02301988');
    await user.tab();
    const notADate = dobMessage('02/30/1988');
    expect(notADate).not.toBe(dobMessage('02/3'));
    expect(await screen.findByText(notADate)).toBeInTheDocument();
  });

  it('refuses a date of birth under 18 with its own message', async () => {
    const { user } = renderQuestions(['dateOfBirth']);
    const child = `01/01/${new Date().getFullYear() - 10}`;
    await user.type(dob(), child.replaceAll('/', ''));
    await user.tab();
    const minor = dobMessage(child);
    expect(minor).not.toBe(dobMessage('02/30/1988'));
    expect(await screen.findByText(minor)).toBeInTheDocument();
  });
});

describe('PhoneWidget', { timeout: 30_000 }, () => {
  const phone = () => field(title('primaryPhoneNumber'));
  const suggestionText = (number: string) =>
    (schema.$defs as Record<string, { 'x-phone': { suggestion: string } }>).phone![
      'x-phone'
    ].suggestion.replace('{number}', number);

  it('formats an international number as typed, names the country, stores +digits', async () => {
    const { user, answers } = renderQuestions(['primaryPhoneNumber']);
    expect(phone()).toHaveAttribute('placeholder', '+1 123 456 7890');
    await user.type(phone(), '+12125550142');
    expect(phone()).toHaveValue('+1 212 555 0142');
    expect(phone()).toHaveAccessibleDescription(/United States/);
    await user.tab();
    await waitFor(() => expect(answers.current.primaryPhoneNumber).toBe('+12125550142'));
  });

  it('formats a paste', async () => {
    const { user } = renderQuestions(['primaryPhoneNumber']);
    await user.click(phone());
    await user.paste('+44 20 7946 0958');
    expect(phone()).toHaveValue('+44 20 7946 0958');
    expect(phone()).toHaveAccessibleDescription(/United Kingdom/);
  });

  // Issue 38 §1: a number typed without '+' is read in the applicant's region (the mailing
  // address's country, else the form's default, the United States), never as another country's.
  it.each([
    ['(312) 555-0100', '(312) 555-0100'],
    ['312-555-0100', '(312) 555-0100'],
    ['3125550100', '(312) 555-0100'],
  ])('reads %j typed with no address yet as a US number', async (typed, shown) => {
    const { user, answers } = renderQuestions(['primaryPhoneNumber']);
    await user.type(phone(), typed);
    expect(phone()).toHaveValue(shown);
    expect(phone()).toHaveAccessibleDescription(/United States/);
    await user.tab();
    await waitFor(() => expect(answers.current.primaryPhoneNumber).toBe('+13125550100'));
    // Left, it shows the international number it was read as: what will be sent.
    expect(phone()).toHaveValue('+1 312 555 0100');
    expect(phone()).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('button', { name: /Did you mean/ })).toBeNull();
  });

  it('reads it in a US mailing address as a US number', async () => {
    const { user, answers } = renderQuestions(['primaryPhoneNumber', 'mailingAddress'], {
      formData: { mailingAddress: { country: 'US' } },
    });
    await user.type(phone(), '(312) 555-0100');
    await user.tab();
    await waitFor(() => expect(answers.current.primaryPhoneNumber).toBe('+13125550100'));
  });

  it("reads it in a non-US mailing address as that country's number", async () => {
    const { user, answers } = renderQuestions(['primaryPhoneNumber', 'mailingAddress'], {
      formData: { mailingAddress: { country: 'GB' } },
    });
    await user.type(phone(), '020 7946 0958');
    await user.tab();
    await waitFor(() => expect(answers.current.primaryPhoneNumber).toBe('+442079460958'));
    expect(phone()).toHaveAccessibleDescription(/United Kingdom/);
    // A US number typed the US way is no British number: refused, never read as +31 or +1.
    await user.clear(phone());
    await user.type(phone(), '(312) 555-0100');
    await user.tab();
    await waitFor(() => expect(answers.current.primaryPhoneNumber).toBe('+443125550100'));
    await screen.findByText(
      messageFor({ primaryPhoneNumber: '+443125550100' }, '/primaryPhoneNumber'),
    );
  });

  it('reads the number again when the address country is chosen after it', async () => {
    const { user, answers } = renderQuestions(['primaryPhoneNumber', 'mailingAddress']);
    await user.type(phone(), '020 7946 0958');
    await user.tab();
    await waitFor(() => expect(answers.current.primaryPhoneNumber).toBe('+102079460958'));
    await user.selectOptions(field(title('mailingAddress', 'country')), 'GB');
    await waitFor(() => expect(answers.current.primaryPhoneNumber).toBe('+442079460958'));
  });

  it("refuses '555-0100' (no area code) with the spec's message, never as +55", async () => {
    const { user, answers } = renderQuestions(['primaryPhoneNumber']);
    await user.type(phone(), '555-0100');
    await user.tab();
    await waitFor(() => expect(answers.current.primaryPhoneNumber).toBe('+15550100'));
    await screen.findByText(messageFor({ primaryPhoneNumber: '+15550100' }, '/primaryPhoneNumber'));
  });

  it("offers the US number in one click for one typed with a '+' that is no number", async () => {
    const { user, answers } = renderQuestions(['primaryPhoneNumber']);
    await user.type(phone(), '+2125550142');
    expect(phone()).toHaveValue(formatInternational('+2125550142'));
    await user.tab();
    // Read as +212 it is no valid number: the rule says so, and the fix is offered beside it.
    await screen.findByText(
      messageFor({ primaryPhoneNumber: '+2125550142' }, '/primaryPhoneNumber'),
    );
    const fix = screen.getByRole('button', { name: suggestionText('+1 212 555 0142') });
    await user.click(fix);
    await waitFor(() => expect(answers.current.primaryPhoneNumber).toBe('+12125550142'));
    expect(phone()).toHaveValue('+1 212 555 0142');
    expect(phone()).toHaveFocus();
    expect(screen.queryByRole('button', { name: /\+1 212 555 0142/ })).toBeNull();
    await waitFor(() => expect(phone()).not.toHaveAttribute('aria-invalid', 'true'));
  });

  it("reads a paste without '+' in the region at once", async () => {
    const { user, answers } = renderQuestions(['primaryPhoneNumber']);
    await user.click(phone());
    await user.paste('1 303-555-0123');
    expect(phone()).toHaveValue('1 (303) 555-0123');
    await user.tab();
    await waitFor(() => expect(answers.current.primaryPhoneNumber).toBe('+13035550123'));
    expect(phone()).toHaveValue('+1 303 555 0123');
  });

  it('offers no fix for a number that is not a US number', async () => {
    const { user } = renderQuestions(['primaryPhoneNumber']);
    await user.type(phone(), '+0142');
    expect(phone()).toHaveValue('+0142');
    await user.tab();
    await screen.findByText(messageFor({ primaryPhoneNumber: '+0142' }, '/primaryPhoneNumber'));
    expect(document.getElementById('root_primaryPhoneNumber-suggestion')).toBeNull();
  });

  it('shows a restored number grouped', () => {
    renderQuestions(['primaryPhoneNumber'], { formData: { primaryPhoneNumber: '+12125550142' } });
    expect(phone()).toHaveValue('+1 212 555 0142');
  });

  it('shows the schema message instead of the helper text', async () => {
    const { user } = renderQuestions(['primaryPhoneNumber']);
    await user.type(phone(), '+1');
    await user.tab();
    const error = await screen.findByText(
      messageFor({ primaryPhoneNumber: '+1' }, '/primaryPhoneNumber'),
    );
    expect(phone()).toHaveAccessibleDescription(error.textContent!);
  });
});

describe('CountryWidget and RegionWidget', { timeout: 30_000 }, () => {
  const country = () => field(title('mailingAddress', 'country'));
  const region = () => field(title('mailingAddress', 'region'));

  it('defaults to the United States with its states', async () => {
    const { answers } = renderQuestions(['mailingAddress']);
    expect(country()).toHaveValue('US');
    expect(within(region()).getByRole('option', { name: 'New York' })).toHaveValue('NY');
    await waitFor(() =>
      expect((answers.current.mailingAddress as Record<string, unknown>).country).toBe('US'),
    );
  });

  it('follows the chosen country and clears a region that is not in it', async () => {
    const { user, answers } = renderQuestions(['mailingAddress']);
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
    const { user, answers } = renderQuestions(['mailingAddress']);
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
    const { user, answers } = renderQuestions(['marriedStatus']);
    const group = screen.getByRole('radiogroup', { name: title('marriedStatus') });
    await user.click(within(group).getByRole('radio', { name: 'Yes' }));
    await waitFor(() => expect(answers.current.marriedStatus).toBe(true));
    await user.click(within(group).getByRole('radio', { name: 'No' }));
    await waitFor(() => expect(answers.current.marriedStatus).toBe(false));
  });
});

describe('RadioWidget', { timeout: 30_000 }, () => {
  it('is a radio group named by the prompt, answering the option value', async () => {
    const { user, answers } = renderQuestions(['typeOfTradingAccount']);
    const group = screen.getByRole('radiogroup', { name: title('typeOfTradingAccount') });
    await user.click(within(group).getByRole('radio', { name: 'Hedging' }));
    await waitFor(() => expect(answers.current.typeOfTradingAccount).toBe('Hedging'));
    expect(within(group).getByRole('radio', { name: 'Hedging' })).toBeChecked();
  });
});

describe('AgreementWidget', { timeout: 30_000 }, () => {
  const row = () =>
    screen.getByRole('group', { name: new RegExp(escape(title('agreeTermsOfService'))) });

  it('starts unsigned, links the document, toggles with its buttons', async () => {
    const { user, answers } = renderQuestions(['agreeTermsOfService']);
    expect(within(row()).getByRole('link', { name: title('agreeTermsOfService') })).toHaveAttribute(
      'href',
      (schema.properties!.agreeTermsOfService as Record<string, unknown>)['x-document'],
    );
    await user.click(within(row()).getByRole('button', { name: 'Electronically Sign' }));
    await waitFor(() => expect(answers.current.agreeTermsOfService).toBe(true));
    await user.click(within(row()).getByRole('button', { name: 'Remove Signature' }));
    await waitFor(() => expect(answers.current.agreeTermsOfService).not.toBe(true));
    const error = await screen.findByText(
      messageFor({ agreeTermsOfService: false }, '/agreeTermsOfService'),
    );
    expect(
      within(row()).getByRole('button', { name: 'Electronically Sign' }),
    ).toHaveAccessibleDescription(new RegExp(error.textContent!));
  });

  it('can be signed from the keyboard', async () => {
    const { user, answers } = renderQuestions(['agreeTermsOfService']);
    within(row()).getByRole('button', { name: 'Electronically Sign' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(answers.current.agreeTermsOfService).toBe(true));
  });

  it('words the signature by its button, not a checkbox', () => {
    renderQuestions(['agreeTermsOfService']);
    expect(title('agreeSignature')).not.toMatch(/check/i);
    expect(title('agreeSignature')).toContain('Electronically Sign');
  });
});

describe('ImageUploadWidget and PdfUploadWidget', { timeout: 30_000 }, () => {
  it('keeps the File out of the answers and hands it to onSubmit', async () => {
    const { user, answers, onSubmit } = renderQuestions(['photoId', 'irsFormW2'], {
      formData: exampleWithout('photoId'),
    });
    const photo = new File([FILE_STARTS.png, new Uint8Array(2036)], 'front.png', {
      type: 'image/png',
    });
    const input = field(title('photoId'));
    expect(input).toHaveAttribute('accept', 'image/*,.heic,.heif');
    await user.upload(input, photo);
    await waitFor(() =>
      expect(answers.current.photoId).toEqual({ name: 'front.png', type: 'image/png', size: 2048 }),
    );
    expect(screen.getByText('front.png (2.0 KB)')).toBeInTheDocument();
    expect(JSON.stringify(answers.current)).not.toContain('data:');

    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const [submitted, files] = onSubmit.mock.calls[0]!;
    expect(submitted.photoId).toEqual({ name: 'front.png', type: 'image/png', size: 2048 });
    expect(files).toEqual({ '/photoId': photo });
  });

  it('refuses a "PDF" that is not one beside the field at once, by its first bytes', async () => {
    const { user, answers } = renderQuestions(['photoId', 'irsFormW2']);
    const fake = new File(['GIF89a not a pdf at all'], 'w2.pdf', { type: 'application/pdf' });
    await user.upload(field(title('irsFormW2')), fake);
    await waitFor(() =>
      expect(answers.current.irsFormW2).toMatchObject({ type: 'application/octet-stream' }),
    );
    const refusal = messageFor(
      { irsFormW2: answers.current.irsFormW2 as Record<string, unknown> },
      '/irsFormW2',
    );
    await screen.findByText(refusal);
    expect(
      screen.getByRole('button', { name: new RegExp(escape(title('irsFormW2'))) }),
    ).toHaveAccessibleDescription(new RegExp(refusal));
  });

  it('refuses a PDF chosen as a photo ID image, and takes a real PDF as the W-2', async () => {
    const { user, answers } = renderQuestions(['photoId', 'irsFormW2'], {
      formData: exampleWithout('photoId', 'irsFormW2'),
    });
    // Named and typed as an image by the browser, a PDF by its bytes.
    const scan = new File([FILE_STARTS.pdf], 'scan.png', { type: 'image/png' });
    await user.upload(field(title('photoId')), scan);
    await waitFor(() => expect(answers.current.photoId).toMatchObject({ type: 'application/pdf' }));
    await screen.findByText(
      messageFor({ photoId: answers.current.photoId as Record<string, unknown> }, '/photoId'),
    );
    const w2 = new File([FILE_STARTS.pdf], 'w2.pdf', { type: 'application/pdf' });
    await user.upload(field(title('irsFormW2')), w2);
    await waitFor(() =>
      expect(answers.current.irsFormW2).toMatchObject({ type: 'application/pdf' }),
    );
    expect(field(title('irsFormW2'))).not.toHaveAttribute('aria-describedby');
  });

  it('removes the file, keeps focus on the field, opens the dialog from a button', async () => {
    const { user, answers } = renderQuestions(['photoId', 'irsFormW2']);
    const w2 = new File([FILE_STARTS.pdf], 'w2.pdf', { type: 'application/pdf' });
    const input = field(title('irsFormW2'));
    expect(input).toHaveAttribute('accept', 'application/pdf');
    const choose = screen.getByRole('button', { name: new RegExp(escape(title('irsFormW2'))) });
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
    expect(
      screen.getByRole('button', { name: new RegExp(escape(title('irsFormW2'))) }),
    ).toHaveFocus();
  });

  it('shows the schema message for a missing file after submit, tied to the button', async () => {
    renderQuestions(['photoId', 'irsFormW2']);
    fireEvent.submit(screen.getByRole('button', { name: 'Send' }).closest('form')!);
    const text = requiredMessage('irsFormW2');
    await screen.findByText(text);
    expect(
      screen.getByRole('button', { name: new RegExp(escape(title('irsFormW2'))) }),
    ).toHaveAccessibleDescription(text);
  });
});
