/**
 * Where a JSON pointer is in a JSON text, by line and column as an editor shows them, so every
 * problem `forms check` names can be opened at its place (issue 37 §4). Pure: a small scanner
 * of well-formed JSON (a malformed file is said by its syntax error instead).
 */
import { toPointer } from './pointer';

/** A place in a text: line and column, both from 1. */
export interface TextPlace {
  line: number;
  column: number;
}

/** Where a value is in a JSON text: where it is named (an object member's key), where it spans. */
interface ValueSpan {
  place: number;
  start: number;
  end: number;
}

/** Every value of a well-formed JSON text by pointer. */
function spansOf(text: string): Map<string, ValueSpan> {
  const spans = new Map<string, ValueSpan>();
  let at = 0;
  const space = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const string = (): string => {
    const start = at;
    at++; // the opening quote
    while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const value = (keys: string[], place: number) => {
    space();
    const start = at;
    const char = text[at];
    if (char === '{') {
      at++;
      space();
      while (at < text.length && text[at] !== '}') {
        const keyAt = at;
        const key = string();
        space();
        at++; // ':'
        value([...keys, key], keyAt);
        space();
        if (text[at] === ',') at++;
        space();
      }
      at++;
    } else if (char === '[') {
      at++;
      space();
      for (let index = 0; at < text.length && text[at] !== ']'; index++) {
        value([...keys, String(index)], -1);
        space();
        if (text[at] === ',') at++;
        space();
      }
      at++;
    } else if (char === '"') string();
    else while (at < text.length && /[^\s,\]}]/.test(text[at]!)) at++;
    spans.set(toPointer(keys), { place: place === -1 ? start : place, start, end: at });
  };
  value([], -1);
  return spans;
}

/** The value spans of a JSON text by pointer (start and end offsets); undefined when not JSON. */
export function valueSpans(text: string): Map<string, { start: number; end: number }> | undefined {
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  return spansOf(text);
}

/** The line and column of an offset into `text`. */
export function placeAt(text: string, offset: number): TextPlace {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/**
 * A finder of pointers in a JSON text: the member's key, an item's value; a pointer the text does
 * not hold gets its nearest holder's place. Undefined when the text is not JSON.
 */
export function placeFinder(text: string): ((pointer: string) => TextPlace) | undefined {
  const spans = valueSpans(text) as Map<string, ValueSpan> | undefined;
  if (!spans) return undefined;
  return (pointer) => {
    let look = pointer;
    for (;;) {
      const offset = spans.get(look)?.place;
      if (offset !== undefined) return placeAt(text, offset);
      if (look === '') return { line: 1, column: 1 };
      look = look.slice(0, look.lastIndexOf('/'));
    }
  };
}

/** The offset into `text` of a line and column. */
function offsetOf(text: string, { line, column }: TextPlace): number {
  let offset = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + column - 1, text.length);
}

/** An open object or list while scanning, and which of its members or items the scan is in. */
interface Open {
  kind: 'object' | 'array';
  /** An object's member named last, once its `:` is read (the scan is then in its value). */
  key?: string;
  /** The string read last in an object, a key until its `:` is read. */
  pending?: string;
  /** A list's item the scan is in, and whether that item has begun. */
  index: number;
  begun: boolean;
}

/**
 * The JSON pointer of the innermost value holding `place` in a JSON text that may be malformed
 * (a syntax error's place), so that even a file that does not parse is named by pointer: the
 * member or item the fault is in or follows, else the object or list holding it.
 */
export function pointerAt(text: string, place: TextPlace): string {
  const end = offsetOf(text, place);
  const open: Open[] = [];
  const begin = () => {
    const top = open.at(-1);
    if (top?.kind === 'array') top.begun = true;
  };
  let at = 0;
  while (at < end) {
    const char = text[at]!;
    const top = open.at(-1);
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    if (char === '"') {
      begin();
      const start = at++;
      while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
      if (++at > end) break;
      if (top?.kind === 'object' && top.key === undefined) {
        try {
          top.pending = JSON.parse(text.slice(start, at)) as string;
        } catch {
          top.pending = text.slice(start + 1, at - 1);
        }
      }
      continue;
    }
    if (char === '{' || char === '[') {
      begin();
      open.push({ kind: char === '{' ? 'object' : 'array', index: 0, begun: false });
    } else if (char === '}' || char === ']') open.pop();
    else if (char === ':' && top?.kind === 'object') top.key = top.pending;
    else if (char === ',' && top) {
      top.index++;
      top.begun = false;
      top.key = top.pending = undefined;
    } else begin();
    at++;
  }
  const keys = open.flatMap((entry, i) => {
    if (entry.kind === 'object') return entry.key === undefined ? [] : [entry.key];
    // A list's item not begun yet (the fault where it should be) names the list.
    return i === open.length - 1 && !entry.begun ? [] : [String(entry.index)];
  });
  return toPointer(keys);
}
