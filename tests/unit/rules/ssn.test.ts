import { describe, expect, it } from 'vitest';
import { ssnProblem } from '../../../src/shared/rules/ssn';

describe('ssnProblem', () => {
  it.each([
    ['123-45-6789', null],
    ['734-12-3456', null], // areas 734–749 and 773–899 are issued since 2011
    ['899-12-3456', null],
    ['123456789', 'format'],
    ['123-456-789', 'format'],
    ['12a-45-6789', 'format'],
    ['000-12-3456', 'notIssued'],
    ['666-12-3456', 'notIssued'],
    ['900-12-3456', 'notIssued'],
    ['123-00-3456', 'notIssued'],
    ['123-45-0000', 'notIssued'],
  ])('%s → %s', (value, problem) => {
    expect(ssnProblem(value)).toBe(problem);
  });
});
