/**
 * The pointer of a syntax error's place in a JSON text that does not parse (issue 37 §4: every
 * `forms check` problem carries a pointer, a line and a column).
 */
import { describe, expect, it } from 'vitest';
import { placeAt, pointerAt } from '../../../src/shared/forms/model/jsonPlaces';

/** The pointer at the first `marker` of `text` (the marker is where the fault is). */
const at = (text: string, marker: string) => pointerAt(text, placeAt(text, text.indexOf(marker)));

describe('pointerAt', () => {
  it('names the member or item a fault follows', () => {
    expect(at('{ "a": { "b": "x", } }', ', }')).toBe('/a/b');
    expect(at('{ "a": [1, {"c": true} , ] }', ', ]')).toBe('/a/1');
    expect(at('{ "a": { "b": "x" "c": 1 } }', '"c"')).toBe('/a/b');
  });

  it('names the object or list holding a fault where no member or item has begun', () => {
    expect(at('{ "a": { "b": 1, , } }', ', }')).toBe('/a');
    expect(at('{ "a": [ , 1] }', ', 1')).toBe('/a');
    expect(at('{ "a/b": { ] }', ']')).toBe('/a~1b');
    expect(at('  ]', ']')).toBe('');
  });

  it('reads strings holding brackets, commas and escaped quotes as strings', () => {
    expect(at('{ "a": "[,{\\"", "b": 1 , }', ', }')).toBe('/b');
  });
});
