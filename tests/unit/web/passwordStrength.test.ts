import { describe, expect, it } from 'vitest';
import {
  loadCommonPasswords,
  newPasswordError,
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
