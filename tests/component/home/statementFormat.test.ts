import { describe, expect, it } from 'vitest';
import {
  formatBusinessDay,
  formatDecimal,
  formatMoney,
  formatMoney2,
  formatUtcTime,
  humanize,
} from '../../../src/web/pages/home/statement/statementFormat';

describe('statement formatting', () => {
  it.each([
    ['0', '0.00'],
    ['-0.00', '0.00'],
    ['1234', '1,234.00'],
    ['-1234567.891', '-1,234,567.891'],
    ['0.1', '0.10'],
    ['12345678901234567890.12', '12,345,678,901,234,567,890.12'],
  ])('formatMoney(%s) = %s', (value, expected) => {
    expect(formatMoney(value)).toBe(expected);
  });

  it.each([
    ['1234.565', '1,234.57'],
    ['-1234.565', '-1,234.57'],
    ['0.004', '0.00'],
    ['-0.004', '0.00'],
    ['999.995', '1,000.00'],
    ['1.005', '1.01'],
    ['-67.17', '-67.17'],
    ['50000', '50,000.00'],
  ])('formatMoney2(%s) = %s (exact, no float rounding)', (value, expected) => {
    expect(formatMoney2(value)).toBe(expected);
  });

  it('keeps a price at its scale and leaves non-decimals as sent', () => {
    expect(formatDecimal('97461.5')).toBe('97,461.5');
    expect(formatDecimal('52.35')).toBe('52.35');
    expect(formatDecimal('1e5')).toBe('1e5');
  });

  it('formats times in UTC and the business day', () => {
    expect(formatUtcTime('2026-11-02T14:31:07.412Z')).toBe('2026-11-02 14:31:07');
    expect(formatUtcTime('2026-11-02T23:30:00-05:00')).toBe('2026-11-03 04:30:00');
    expect(formatBusinessDay('2026-11-01')).toBe('November 1, 2026');
  });

  it('spaces identifiers', () => {
    expect(humanize('CustomerSegregated')).toBe('Customer Segregated');
    expect(humanize('NFA')).toBe('NFA');
  });
});
