import crypto from 'node:crypto';

// Made and hashed where they are stored (db/ is the floor); auth and the plugins take them here.
export { hashToken, newToken } from '../db/opaqueTokens';

/** Compares two strings in constant time (for CSRF tokens and the like). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
