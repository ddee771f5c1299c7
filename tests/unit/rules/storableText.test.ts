import { describe, expect, it } from 'vitest';
import { isStorableText, unstorableTextPath } from '../../../src/shared/rules/storableText';

describe('unstorableTextPath', () => {
  it('answers null for text PostgreSQL stores, however it is nested', () => {
    expect(unstorableTextPath({ id: 'a', list: ['x', { 'é🙂': 'ok' }], n: 1, none: null })).toBe(
      null,
    );
    expect(unstorableTextPath('plain')).toBe(null);
    expect(unstorableTextPath(undefined)).toBe(null);
  });

  it('names the first unstorable value by its JSON pointer', () => {
    expect(unstorableTextPath('a\u0000b')).toBe('/');
    expect(unstorableTextPath({ organizationId: 'a\u0000b' })).toBe('/organizationId');
    expect(unstorableTextPath({ people: [{ name: 'ok' }, { name: 'x\ud800' }] })).toBe(
      '/people/1/name',
    );
    expect(unstorableTextPath({ 'a/b~c': ['\udc00'] })).toBe('/a~1b~0c/0');
  });

  it('names an unstorable key', () => {
    expect(unstorableTextPath({ outer: { 'bad\u0000key': 'value' } })).toBe('/outer/bad\u0000key');
  });

  it('keeps a paired surrogate (an emoji) and refuses a lone one', () => {
    expect(isStorableText('🙂')).toBe(true);
    expect(isStorableText('\ud83d')).toBe(false);
    expect(isStorableText('\ude42x')).toBe(false);
  });
});
