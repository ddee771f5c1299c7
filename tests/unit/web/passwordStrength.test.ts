import { describe, expect, it } from 'vitest';
import { newPasswordError, passwordStrength } from '../../../src/shared/rules/password';

describe('passwordStrength (the meter of access §5)', () => {
  it.each([
    ['', 'weak'],
    ['abcde1', 'medium'], // 6 characters, lowercase + digit: the weak rule passes
    ['abcd1', 'weak'], // 5 characters
    ['abcdef', 'weak'], // one class only
    ['ABCDEF1', 'medium'],
    ['Abcdef1!', 'strong'], // 8 characters with all four classes
    ['Abcde1!', 'medium'], // 7 characters: not strong
    ['Abcdefg1', 'medium'], // no special character
    ['abcdefg1!', 'medium'], // no uppercase
    ['Abcdefg!', 'medium'], // no digit
  ] as const)('%j is %s', (password, strength) => {
    expect(passwordStrength(password)).toBe(strength);
  });

  it('rejects exactly what the meter calls weak', () => {
    expect(newPasswordError('abcd1')).toBe('Password is too weak');
    expect(newPasswordError('abcde1')).toBeNull();
  });
});
