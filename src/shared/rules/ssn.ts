/**
 * US Social Security numbers, NNN-NN-NNNN (spec business §5.3). The wording of each reason lives in
 * the schema (`x-ssn`).
 */

export const SSN_PROBLEMS = ['format', 'notIssued'] as const;
type SsnProblem = (typeof SSN_PROBLEMS)[number];

export const SSN_MAX_LENGTH = 11;
const SSN = /^(\d{3})-(\d{2})-(\d{4})$/;

/**
 * Why `value` is not an SSN, or null when it is. `notIssued`: the Social Security Administration
 * never issues area 000, 666 or 900–999, group 00 or serial 0000.
 */
export function ssnProblem(value: string): SsnProblem | null {
  const match = SSN.exec(value);
  if (!match) return 'format';
  const [, area = '', group = '', serial = ''] = match;
  if (area === '000' || area === '666' || area.startsWith('9')) return 'notIssued';
  if (group === '00' || serial === '0000') return 'notIssued';
  return null;
}
