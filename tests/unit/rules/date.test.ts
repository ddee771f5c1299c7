import { describe, expect, it } from 'vitest';
import { dateProblem, parseUsDate } from '../../../src/shared/rules/date';

describe('dateProblem', () => {
  const today = new Date(2025, 5, 15, 13, 30);
  it.each([
    ['04/17/1985', null],
    ['4/7/1985', null],
    ['02/29/2024', null],
    ['02/29/2023', 'notADate'],
    ['02/30/1990', 'notADate'],
    ['13/01/1990', 'notADate'],
    ['1985-04-17', 'format'],
    ['04/17/85', 'format'],
    ['004/17/1985', 'format'],
    ['', 'format'],
  ])('%s → %s', (value, problem) => {
    expect(dateProblem(value, { today })).toBe(problem);
  });

  it('rejects future dates only when asked', () => {
    expect(dateProblem('06/16/2025', { today, notInFuture: true })).toBe('future');
    expect(dateProblem('06/15/2025', { today, notInFuture: true })).toBeNull();
    expect(dateProblem('06/16/2025', { today })).toBeNull();
  });

  it('rejects people under 18 only when asked', () => {
    expect(dateProblem('06/16/2007', { today, adult: true })).toBe('minor');
    expect(dateProblem('06/15/2007', { today, adult: true })).toBeNull();
    expect(dateProblem('06/16/2007', { today })).toBeNull();
    // A future date is 'future', not a minor, when both checks are on.
    expect(dateProblem('06/16/2025', { today, adult: true, notInFuture: true })).toBe('future');
  });

  it('rejects dates of birth more than 120 years ago only when asked (issue 38 §1)', () => {
    expect(dateProblem('01/01/1850', { today, living: true })).toBe('tooOld');
    expect(dateProblem('06/14/1905', { today, living: true })).toBe('tooOld');
    expect(dateProblem('06/15/1905', { today, living: true })).toBeNull();
    expect(dateProblem('01/01/1850', { today })).toBeNull();
  });

  it('parses to the calendar date', () => {
    expect(parseUsDate('4/7/1985')).toEqual(new Date(1985, 3, 7));
    expect(parseUsDate('nope')).toBeNull();
  });
});
