import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { draftSafeAnswers } from '../../../src/shared/forms/walk/answers';
import { clearDrafts, DRAFT_DELAY_MS, DRAFT_PREFIX } from '../../../src/web/forms/drafts';
import { field, renderForm } from './helpers';
import { exampleAnswers, exampleWithout, FILE_STARTS, form, FORM_ID, title } from './testForm';
import { testForm } from '../../forms';

/** The draft the real form keeps (key by the real form id, so the real filter runs). */
const stored = (formId: string = FORM_ID) => {
  const raw = localStorage.getItem(`${DRAFT_PREFIX}${formId}`);
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
};

afterEach(() => {
  vi.useRealTimers();
});

describe('drafts', { timeout: 30_000 }, () => {
  it('saves 300 ms after the last change, without SSN, date of birth, files or agreements', async () => {
    const { user } = renderForm();
    await user.type(field(title('firstName')), 'Ada');
    await user.type(field(title('socialSecurityNumber')), '123456789');
    await user.type(field(title('dateOfBirth')), '01312000');
    await user.selectOptions(field(title('idType')), 'passport');
    await user.upload(
      field(title('photoId')),
      new File([FILE_STARTS.png], 'id.png', { type: 'image/png' }),
    );
    await user.click(screen.getAllByRole('button', { name: 'Electronically Sign' })[0]!);
    const married = screen.getByRole('radiogroup', { name: title('marriedStatus') });
    await user.click(within(married).getByRole('radio', { name: 'Yes' }));
    await waitFor(() => expect(stored()).toMatchObject({ marriedStatus: true }));
    localStorage.clear();
    vi.useFakeTimers(); // time stands still from here
    await act(async () => {
      fireEvent.click(within(married).getByRole('radio', { name: 'No' }));
    });
    await act(async () => vi.advanceTimersByTime(DRAFT_DELAY_MS - 1));
    expect(stored()).toBeNull();
    await act(async () => vi.advanceTimersByTime(1));
    const draft = stored();
    expect(draft).toMatchObject({ firstName: 'Ada', marriedStatus: false, idType: 'passport' });
    expect(draft).not.toHaveProperty('socialSecurityNumber');
    expect(draft).not.toHaveProperty('dateOfBirth');
    expect(draft).not.toHaveProperty('photoId');
    expect(draft).not.toHaveProperty('agreeTermsOfService');
    expect(JSON.stringify(draft)).not.toMatch(/123-45-6789|01\/31\/2000|id\.png/);
  });

  it('keeps none of the individual example answers that must not be stored', async () => {
    const answers = exampleAnswers();
    const { user } = renderForm({ formData: answers });
    await user.type(field(title('lastName')), 'x');
    await waitFor(() => expect(stored()).toMatchObject({ firstName: answers.firstName }));
    const draft = JSON.stringify(stored());
    for (const key of ['socialSecurityNumber', 'dateOfBirth']) {
      expect(draft).not.toContain(String(answers[key]));
    }
    for (const key of Object.keys(answers).filter((k) => k.startsWith('agree'))) {
      expect(stored()).not.toHaveProperty(key);
    }
    for (const key of ['photoId', 'photoIdBack', 'irsFormW2']) {
      expect(stored()).not.toHaveProperty(key);
      expect(draft).not.toContain((answers[key] as { name: string }).name);
    }
  });

  it('keeps no SSN, passport number, date of birth, file or signature of the business form', async () => {
    const business = testForm('business');
    const answers = exampleAnswers('business');
    const { user } = renderForm({
      form: business,
      formData: answers,
    });
    await user.type(screen.getAllByRole('textbox', { name: /^First name/ })[0]!, 'x');
    await waitFor(() => expect(stored('business')).not.toBeNull());
    const draft = JSON.stringify(stored('business'));
    const persons = answers.affiliatedPersons as Array<Record<string, unknown>>;
    expect(draft).toContain(String(persons[0]!.lastName)); // persons are kept …
    for (const person of persons) {
      // … without their sensitive identifiers
      for (const key of ['ssn', 'passportNumber', 'dob']) {
        if (person[key] !== undefined) expect(draft).not.toContain(String(person[key]));
      }
    }
    for (const [key, value] of Object.entries(answers)) {
      const file = value as { name?: unknown; size?: unknown } | null;
      if (file && typeof file === 'object' && 'size' in file) {
        expect(draft).not.toContain(String(file.name));
      }
      if (/^(agree|ack)/.test(key)) expect(stored('business')).not.toHaveProperty(key);
    }
  });

  it('restores a draft on load', async () => {
    localStorage.setItem(
      `${DRAFT_PREFIX}${FORM_ID}`,
      JSON.stringify({
        firstName: 'Grace',
        primaryPhoneNumber: '+12125550142',
        mailingAddress: { country: 'CA', region: 'ON' },
      }),
    );
    const { answers } = renderForm();
    expect(field(title('firstName'))).toHaveValue('Grace');
    expect(field(title('mailingAddress', 'country'))).toHaveValue('CA');
    expect(field(title('mailingAddress', 'region'))).toHaveValue('ON');
    await waitFor(() => expect(answers.current.firstName).toBe('Grace'));
    expect(field(title('socialSecurityNumber'))).toHaveValue('');
    // A restored phone number is shown grouped, as typed numbers are.
    expect(field(title('primaryPhoneNumber'))).toHaveValue('+1 212 555 0142');
  });

  it('is removed after a successful submission', async () => {
    const { user, onSubmit } = renderForm({ formData: exampleWithout('firstName') });
    await user.type(field(title('firstName')), 'Ada');
    await waitFor(() => expect(stored()).not.toBeNull());
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    await waitFor(() => expect(stored()).toBeNull());
  });

  it('clearDrafts removes every draft and nothing else', () => {
    localStorage.setItem(`${DRAFT_PREFIX}individual`, '{}');
    localStorage.setItem(`${DRAFT_PREFIX}business`, '{}');
    localStorage.setItem('clearing.accountType', 'individual');
    clearDrafts();
    expect(localStorage.getItem(`${DRAFT_PREFIX}individual`)).toBeNull();
    expect(localStorage.getItem(`${DRAFT_PREFIX}business`)).toBeNull();
    expect(localStorage.getItem('clearing.accountType')).toBe('individual');
  });

  it('the one walker (draftSafeAnswers) leaves out x-sensitive, file and agreement answers', () => {
    const answers = {
      firstName: 'Ada',
      socialSecurityNumber: '123-45-6789',
      dateOfBirth: '1/1/2000',
      photoId: { name: 'a.png', type: 'image/png', size: 1 },
      agreeTermsOfService: true,
      mailingAddress: { line1: '1 Main St', country: 'US' },
    };
    expect(draftSafeAnswers(form, answers)).toEqual({
      firstName: 'Ada',
      mailingAddress: { line1: '1 Main St', country: 'US' },
    });
  });
});
