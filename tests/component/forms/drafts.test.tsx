import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clearDrafts,
  DRAFT_DELAY_MS,
  DRAFT_PREFIX,
  draftSafe,
} from '../../../src/web/forms/drafts';
import { field, renderForm } from './helpers';
import { schema, title, uiSchema } from './testForm';

const KEY = `${DRAFT_PREFIX}test`;
const stored = () => {
  const raw = localStorage.getItem(KEY);
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
};

afterEach(() => {
  vi.useRealTimers();
});

// user-event typing into MUI inputs is slow on a busy 2-core machine
describe('drafts', { timeout: 30_000 }, () => {
  it('saves 300 ms after the last change, without SSN, date of birth, files or agreements', async () => {
    const { user } = renderForm();
    await user.type(field(title('firstName')), 'Ada');
    await user.type(field(title('socialSecurityNumber')), '123456789');
    await user.type(field(title('dateOfBirth')), '01312000');
    await user.upload(field(title('photoId')), new File(['x'], 'id.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'Electronically Sign' }));
    await user.click(screen.getByRole('radio', { name: 'Yes' }));
    await waitFor(() => expect(stored()).toMatchObject({ marriedStatus: true }));
    localStorage.clear();
    vi.useFakeTimers(); // time stands still from here
    await act(async () => {
      fireEvent.click(screen.getByRole('radio', { name: 'No' }));
    });
    await act(async () => vi.advanceTimersByTime(DRAFT_DELAY_MS - 1));
    expect(stored()).toBeNull();
    await act(async () => vi.advanceTimersByTime(1));
    const draft = stored();
    expect(draft).toMatchObject({ firstName: 'Ada', marriedStatus: false });
    expect(draft).not.toHaveProperty('socialSecurityNumber');
    expect(draft).not.toHaveProperty('dateOfBirth');
    expect(draft).not.toHaveProperty('photoId');
    expect(draft).not.toHaveProperty('agreeTermsOfService');
    expect(JSON.stringify(draft)).not.toContain('123-45-6789');
  });

  it('restores a draft on load', async () => {
    localStorage.setItem(
      KEY,
      JSON.stringify({ firstName: 'Grace', mailingAddress: { country: 'CA', region: 'ON' } }),
    );
    const { answers } = renderForm();
    expect(field(title('firstName'))).toHaveValue('Grace');
    expect(field(title('mailingAddress', 'country'))).toHaveValue('CA');
    expect(field(title('mailingAddress', 'region'))).toHaveValue('ON');
    await waitFor(() => expect(answers.current.firstName).toBe('Grace'));
    expect(field(title('socialSecurityNumber'))).toHaveValue('');
  });

  it('is removed after a successful submission', async () => {
    const { user, onSubmit } = renderForm();
    await user.type(field(title('firstName')), 'Ada');
    await user.type(field(title('socialSecurityNumber')), '123456789');
    await user.upload(field(title('photoId')), new File(['x'], 'id.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'Electronically Sign' }));
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

  it('draftSafe follows x-sensitive, file and agreement annotations and widgets', () => {
    const answers = {
      firstName: 'Ada',
      socialSecurityNumber: '123-45-6789',
      dateOfBirth: '1/1/2000',
      photoId: { name: 'a.png', type: 'image/png', size: 1 },
      agreeTermsOfService: true,
      mailingAddress: { line1: '1 Main St', country: 'US' },
    };
    expect(draftSafe(schema, uiSchema, answers)).toEqual({
      firstName: 'Ada',
      mailingAddress: { line1: '1 Main St', country: 'US' },
    });
  });
});
