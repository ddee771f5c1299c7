import { describe, expect, it } from 'vitest';
import { formatDate, formatFileSize, formatPhone, formatSsn } from '../../../src/web/forms/format';

describe('formatSsn', () => {
  it.each([
    ['1', '1'],
    ['1234', '123-4'],
    ['12345', '123-45'],
    ['123456', '123-45-6'],
    ['123456789', '123-45-6789'],
    ['1234567890123', '123-45-6789'],
    ['12a3-4b5 6789', '123-45-6789'],
    ['123-', '123'],
  ])('%s → %s', (raw, formatted) => expect(formatSsn(raw)).toBe(formatted));
});

describe('formatDate', () => {
  it.each([
    ['1', '1'],
    ['12', '12'],
    ['123', '12/3'],
    ['12312024', '12/31/2024'],
    ['1/5/2024', '1/5/2024'],
    ['1/', '1/'],
    ['12/', '12/'],
    ['123120245', '12/31/2024'],
    ['ab12-31', '12/31'],
    // Year first (ISO), typed or pasted: converted once complete.
    ['1988-04-15', '04/15/1988'],
    [' 1988-04-05 ', '04/05/1988'],
    ['19880415', '04/15/1988'],
    ['1988', '1988'],
    ['1988-0', '1988-0'],
    ['1988-04-1', '1988-04-1'],
    ['15041988', '15/04/1988'],
  ])('%s → %s', (raw, formatted) => expect(formatDate(raw)).toBe(formatted));
});

describe('formatPhone', () => {
  it('groups an international number', () => {
    expect(formatPhone('+12125550142')).toEqual({
      text: '+1 212 555 0142',
      value: '+12125550142',
      country: 'US',
    });
  });
  it("prepends '+' to a number typed or pasted without it (business §4)", () => {
    expect(formatPhone('13035550123')).toEqual({
      text: '+1 303 555 0123',
      value: '+13035550123',
      country: 'US',
    });
    expect(formatPhone('303-555-0123 ').value).toBe('+3035550123');
    expect(formatPhone('(').text).toBe('');
  });
  it("reads a number typed without '+' in the region given, never as another country's", () => {
    expect(formatPhone('(312) 555-0100', 'US')).toEqual({
      text: '(312) 555-0100',
      value: '+13125550100',
      country: 'US',
      readIn: 'US',
    });
    expect(formatPhone('1 312 555 0100', 'US').value).toBe('+13125550100');
    expect(formatPhone('555-0100', 'US')).toMatchObject({ value: '+15550100', country: undefined });
    expect(formatPhone('020 7946 0958', 'GB').value).toBe('+442079460958');
    // A '+' says the country itself.
    expect(formatPhone('+3125550100', 'US').value).toBe('+3125550100');
  });
  it('keeps a lone + and empties on nothing', () => {
    expect(formatPhone('+')).toEqual({ text: '+', value: undefined, country: undefined });
    expect(formatPhone('')).toEqual({ text: '', value: undefined, country: undefined });
  });
  it('drops other characters', () => {
    expect(formatPhone('+44 (20) 7946-0958').value).toBe('+442079460958');
  });
});

describe('formatFileSize', () => {
  it('uses B, KB, MB', () => {
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(2048)).toBe('2.0 KB');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});
