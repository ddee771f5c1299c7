import { describe, expect, it } from 'vitest';
import { firm } from '../../../src/shared/config/firm';
import {
  madeOfOwnWords,
  newPasswordError,
  PASSWORD_MESSAGES,
  passwordStrength,
} from '../../../src/shared/rules/password';

/** Issue 27 §3 (ASVS 6.2.11): a new password may not be, or mostly be, the account's own words. */
describe('passwords made of the account’s own words', () => {
  const carol = {
    email: 'carol1@sec.example',
    firstName: 'Carol',
    lastName: 'Whitfield',
    organizationName: 'Acme Hedging LLC',
  };

  it.each([
    'carol1@sec.example', // the email itself
    'CAROL1@SEC.EXAMPLE',
    'Carol1-2026!', // its local part, digits and symbols aside
    'Carol-Whitfield-9', // first and last name
    'Whitfield#1984', // the last name
    'AcmeHedging-2026', // the firm's name
    `${firm.product}2026!`, // the service's words, from firm.ts
    'Clearing-Portal-1',
    'Northstar-Clearing-Member-9',
    'carol.x1!', // the name and fewer than four letters of one's own
  ])('refuses %j for carol1@sec.example, saying why', (password) => {
    expect(madeOfOwnWords(password, carol)).toBe(true);
    expect(newPasswordError(password, undefined, carol)).toBe(PASSWORD_MESSAGES.ownWords);
    expect(passwordStrength(password, undefined, carol)).toBe('weak');
  });

  it.each(['Carol-Lantern-48', 'Quay-Harbour-77!', 'Vkrt6mz!'])(
    'accepts %j: it keeps words of its own',
    (password) => {
      expect(madeOfOwnWords(password, carol)).toBe(false);
      expect(newPasswordError(password, undefined, carol)).toBeNull();
    },
  );

  it('keeps the specification’s message first, with one sentence saying why', () => {
    expect(PASSWORD_MESSAGES.ownWords.startsWith(`${PASSWORD_MESSAGES.tooWeak}. `)).toBe(true);
    expect(PASSWORD_MESSAGES.ownWords.split('. ')).toHaveLength(2);
  });

  it('knows the service’s words without an account', () => {
    expect(newPasswordError('Northstar2026!')).toBe(PASSWORD_MESSAGES.ownWords);
    expect(newPasswordError('Lantern-Quay-48')).toBeNull();
  });
});
