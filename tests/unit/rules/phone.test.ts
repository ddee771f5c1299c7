import { describe, expect, it } from 'vitest';
import { internationalSuggestion, phoneProblem } from '../../../src/shared/rules/phone';

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
    // Valid, not only possible (issue 38 §1): the length of a US number, no such area code.
    ['+1 999 555 0100', 'notPossible'],
    ['+1 123 456 7890', 'notPossible'],
    ['+1 312 555 0100', null],
  ])('%s → %s', (value, problem) => {
    expect(phoneProblem(value)).toBe(problem);
  });
});

describe('internationalSuggestion', () => {
  it.each([
    ['2125550142', '+12125550142'],
    ['(212) 555-0142', '+12125550142'],
    [' 212.555.0142 ', '+12125550142'],
    // The phone field prepends '+': a US number so read is no valid number anywhere.
    ['+2125550142', '+12125550142'],
    ['+30 35550123', '+13035550123'],
    ['+1 212 555 0142', null], // valid as it is
    ['1 212 555 0142', null], // the same number, with its country code
    ['+44 20 7946 0958', null], // a valid foreign number stands
    ['2125550', null], // too short for a US number
    ['0142', null],
    ['', null],
  ])('%s → %s', (value, suggestion) => {
    expect(internationalSuggestion(value, 'US')).toBe(suggestion);
  });
});
