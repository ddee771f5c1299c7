import crypto from 'node:crypto';

/** Compares two strings in constant time (for CSRF tokens and the like). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
