import { describe, expect, it } from 'vitest';
import { nameProblem } from '../../../src/shared/rules/names';

describe('nameProblem', () => {
  it.each([
    ['Jane', null],
    ["O'Neill", null],
    ['Saint-Clair', null],
    ['José María', null],
    ['Jr.', null],
    ['Zoë', null],
    ['李', null],
    ['J4ne', 'invalidCharacters'],
    ['Jane!', 'invalidCharacters'],
    ['<script>', 'invalidCharacters'],
    ["-'", 'invalidCharacters'],
  ])('%s → %s', (value, problem) => {
    expect(nameProblem(value)).toBe(problem);
  });
});
