import { describe, expect, it } from 'vitest';
import { leiProblem } from '../../../src/shared/rules/lei';

describe('leiProblem', () => {
  it.each([
    ['5493001KJTIIGC8Y1R12', null],
    ['529900T8BM49AURSDO55', null],
    ['529900t8bm49aursdo55', null],
    ['5493001KJTIIGC8Y1R13', 'checksum'],
    ['5493001KJTIIGC8Y1R1', 'length'],
    ['5493001KJTIIGC8Y1R1-', 'characters'],
  ])('%s → %s', (value, problem) => {
    expect(leiProblem(value)).toBe(problem);
  });
});
