import crypto from 'node:crypto';

/** A random opaque token for cookies and emailed links (256 bits, URL-safe). */
export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Tokens are stored only as this hash, so a database leak yields no usable token. */
export function hashToken(token: string): string {
  // The one-shot digest: every signed-in request hashes its session cookie, and a Hash object
  // per call cost about half of that.
  return crypto.hash('sha256', token, 'hex');
}
