import { describe, expect, it } from 'vitest';
import { phoneCountry, phoneProblem, toE164 } from '../../../src/shared/rules/phone';

describe('phoneProblem', () => {
  it.each([
    ['+12125550142', null],
    ['+1 212 555 0142', null],
    ['+44 20 7946 0958', null],
    ['+1 (212) 555-0142 ext. 1234', null],
    ['2125550142', 'international'],
    ['+1', 'tooShort'],
    ['+', 'tooShort'],
    ['+1212555014212341234', 'tooLong'],
    [`+1212555014${'2'.repeat(250)}`, 'tooLong'],
    ['+1 212 555 0142 ext. 123456789012345678901', 'tooLong'],
    ['+1 212 CALL NOW', 'invalidCharacters'],
    ['+1-212-555-01#42a', 'invalidCharacters'],
    ['+9991234567', 'invalidCountry'],
    ['+121255', 'notPossible'],
  ])('%s → %s', (value, problem) => {
    expect(phoneProblem(value)).toBe(problem);
  });
});

describe('phone helpers', () => {
  it('gives E.164 and the country', () => {
    expect(toE164('+1 212 555 0142')).toBe('+12125550142');
    expect(toE164('nonsense')).toBeNull();
    expect(phoneCountry('+44 20 7946 0958')).toBe('GB');
    expect(phoneCountry('+1')).toBeNull();
  });
});
