import { describe, expect, it } from 'vitest';
import { matchesIfNoneMatch, strongEtag } from '../../../src/server/conditionalGet';

describe('conditional GET helpers', () => {
  it('makes a strong ETag that differs by scope for the same body', () => {
    const a = strongEtag('{"x":1}', 'org-a');
    expect(a).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(strongEtag('{"x":1}', 'org-a')).toBe(a);
    expect(strongEtag('{"x":1}', 'org-b')).not.toBe(a);
    expect(strongEtag('{"x":2}', 'org-a')).not.toBe(a);
  });

  it('matches If-None-Match as RFC 9110 reads it: a list, weak tags, or *', () => {
    const etag = '"abc"';
    expect(matchesIfNoneMatch(undefined, etag)).toBe(false);
    expect(matchesIfNoneMatch('"abc"', etag)).toBe(true);
    expect(matchesIfNoneMatch('"x", "abc"', etag)).toBe(true);
    expect(matchesIfNoneMatch('W/"abc"', etag)).toBe(true);
    expect(matchesIfNoneMatch('*', etag)).toBe(true);
    expect(matchesIfNoneMatch('"abcd"', etag)).toBe(false);
    expect(matchesIfNoneMatch('abc', etag)).toBe(false);
  });
});
