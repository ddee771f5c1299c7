import { describe, expect, it } from 'vitest';
import { postalCodeProblem } from '../../../src/shared/rules/postalCode';

describe('postalCodeProblem', () => {
  it.each([
    ['US', '10118', null],
    ['US', '1011A', 'digits'],
    // A ZIP+4: numbers, a hyphen aside; what is wrong is its length (issue 38 §1).
    ['US', '10118-0110', 'length'],
    ['US', '10118 0110', 'digits'],
    ['US', '1011', 'length'],
    ['US', '101180', 'length'],
    ['GB', 'SW1A 2AA', null],
    ['CA', 'K1A 0B1', null],
  ])('%s %s → %s', (country, code, problem) => {
    expect(postalCodeProblem(country, code)).toBe(problem);
  });
});
