import { describe, expect, it } from 'vitest';
import {
  loadCommonPasswords,
  newPasswordError,
  PASSWORD_MESSAGES,
  passesWeakRule,
  passwordStrength,
} from '../../../src/shared/rules/password';

describe('passwordStrength (the meter of access §5)', () => {
  it.each([
    ['', 'weak'],
    ['abcd1', 'weak'], // 5 characters
    ['abcdef', 'weak'], // one class only
    ['abcde1', 'weak'], // the spec's weak rule passes, but under 8 characters (ASVS 6.2.1)
    ['Abcde1!', 'weak'], // 7 characters
    ['ABCDEFG1', 'medium'],
    ['Vkrt6mzq', 'medium'], // 8 characters, lowercase, uppercase and digit: accepted, not strong
    ['Vkrt6mz!', 'strong'], // 8 characters with all four classes
    ['Vkrtmzqw!', 'medium'], // no digit
    ['vkrt6mzq!', 'medium'], // no uppercase
  ] as const)('%j is %s', (password, strength) => {
    expect(passwordStrength(password)).toBe(strength);
  });

  it('keeps the specification’s weak rule itself (6 characters, two classes)', () => {
    expect(passesWeakRule('abcde1')).toBe(true);
    expect(passesWeakRule('abcd1')).toBe(false);
    expect(passesWeakRule('abcdef')).toBe(false);
  });
});

describe('newPasswordError (spec access §5, docs/decisions.md, Passwords and sessions)', () => {
  it('refuses a password under 8 characters with the specification’s message', () => {
    expect(newPasswordError('Abcde1!')).toBe('Password is too weak');
    expect(newPasswordError('Abcdef1!')).toBeNull();
  });

  it('refuses the common passwords, whatever their case', async () => {
    const common = await loadCommonPasswords();
    expect(common.size).toBeGreaterThanOrEqual(10_000);
    // Each passes the spec's rule and the length, and is on every cracking list.
    for (const password of ['password1', 'Password1', 'PASSWORD123', 'Qwerty123', 'iloveyou1']) {
      expect(passesWeakRule(password)).toBe(true);
      expect(newPasswordError(password, common)).toBe('Password is too weak');
      expect(passwordStrength(password, common)).toBe('weak');
    }
    // Without the list (a browser that has not loaded it yet) only the server would refuse it.
    expect(newPasswordError('Password1')).toBeNull();
    expect(newPasswordError('Vkrt6mzq-Lantern', common)).toBeNull();
  });

  it('accepts a 64-character passphrase and more', () => {
    const long = 'Correct horse battery staple 7 '.repeat(4).slice(0, 100);
    expect(long.length).toBe(100);
    expect(newPasswordError(long)).toBeNull();
  });
});

/**
 * Issue 39 §4: a year, symbols, leetspeak, lookalike letters of another script and fullwidth forms
 * do not hide a common password or the account's own words, and the browser's hint and meter say
 * what the server says (they call the same functions with the same list).
 */
describe('passwords read as people read them, before the common and own-words checks', () => {
  const henry = { email: 'henry.walker@example.test', firstName: 'Henry', lastName: 'Walker' };
  const CYRILLIC_O = '\u043E';
  const GREEK_O = '\u03BF';
  const CYRILLIC_E = '\u0435';
  const fullwidth = (text: string) =>
    [...text].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('');

  it.each([
    ['Password123!', PASSWORD_MESSAGES.tooWeak],
    ['Welcome2026!', PASSWORD_MESSAGES.tooWeak],
    ['Qwerty123!', PASSWORD_MESSAGES.tooWeak],
    ['P@ssw0rd2026', PASSWORD_MESSAGES.tooWeak],
    ['Summer2026!', PASSWORD_MESSAGES.tooWeak],
    ['$unsh1ne-2026', PASSWORD_MESSAGES.tooWeak], // sunshine: $ for s, 1 for i, a year
    [`Passw${CYRILLIC_O}rd2026!`, PASSWORD_MESSAGES.tooWeak], // a Cyrillic о for the o
    [`M${GREEK_O}nkey2026!`, PASSWORD_MESSAGES.tooWeak], // a Greek ο for the o
    [`${fullwidth('Password123')}`, PASSWORD_MESSAGES.tooWeak], // fullwidth letters and digits
    [`${fullwidth('Summer')}2026!`, PASSWORD_MESSAGES.tooWeak],
    ['N0rthst4r-Cl34ring!', PASSWORD_MESSAGES.ownWords], // the service's words in leetspeak
    ['H3nry-W4lker-2026!', PASSWORD_MESSAGES.ownWords], // the account's name in leetspeak
    [`H${CYRILLIC_E}nry-Walker-7`, PASSWORD_MESSAGES.ownWords], // a Cyrillic е in the name
    ['HENRY_w4lk3r_1!', PASSWORD_MESSAGES.ownWords],
  ])('refuses %j for Henry Walker, in the browser as on the server', async (password, message) => {
    const common = await loadCommonPasswords();
    expect(newPasswordError(password, common, henry)).toBe(message);
    // The meter never calls a password it will refuse anything but weak.
    expect(passwordStrength(password, common, henry)).toBe('weak');
  });

  it.each([
    // The demo sign-ins (README) and the passwords tests, end-to-end specs and the bench set.
    'Demo-Pass-2026!',
    'Demo-Staff-2026!',
    'Staff-Pass-2026!',
    'Secret-Pass-1',
    'Str0ng!Pass',
    'N3w!Password',
    'Inv1te!Pass',
    'Lantern-Quay-48',
    'Harbour-Kite-93',
    'Quay-Lantern-48!',
    'Bench-Pass-1-long',
    'Narrow-Pass-2026!',
    'Renewed-Harbour-Key-9',
  ])('accepts %j', async (password) => {
    const common = await loadCommonPasswords();
    expect(newPasswordError(password, common, henry)).toBeNull();
    expect(passwordStrength(password, common, henry)).not.toBe('weak');
  });
});
