import crypto from 'node:crypto';

/** A strong ETag of a serialised answer: its SHA-256, with `scope` mixed in (an organisation). */
export function strongEtag(body: string, scope = ''): string {
  const hash = crypto.createHash('sha256').update(scope).update('\n').update(body);
  return `"${hash.digest('base64url').slice(0, 27)}"`;
}

/**
 * Whether `If-None-Match` names `etag` (RFC 9110 §13.1.2: a list of tags, compared weakly, or
 * `*`), so a GET may answer 304.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  return header.split(',').some((tag) => bare(tag) === wanted);
}
