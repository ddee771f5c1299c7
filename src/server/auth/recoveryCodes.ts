/**
 * Recovery codes (issue 38 §4; NIST SP 800-63B-4 §3.1.2 look-up secrets; ASVS 5.0 6.5.1–6.5.4):
 * ten one-time codes, shown once when the authenticator app is turned on (and a new set on
 * request), each accepted once in place of a second factor wherever one is asked.
 *
 * A code is 10 characters of Crockford's base32 (digits and lower-case letters without i, l, o,
 * u), 50 bits from the CSPRNG, shown as `xxxxx-xxxxx`. Typed back, case, spaces and hyphens do not
 * matter, and i, l and o read as 1, 1 and 0. With fewer than 112 bits, each is stored salted and
 * hashed with scrypt (ASVS 6.5.2): the ten of a set share one random 128-bit salt, so a check
 * derives once however many codes remain. Wrong codes count against the account's second-factor
 * limit (secondFactor.ts) like wrong TOTP codes, far below the 2^50 a guess must search.
 */
import crypto from 'node:crypto';
import { passwordHashQueue } from './hashQueue';
import { scryptInThread } from './hashThreads';

const RECOVERY_CODE_COUNT = 10;
const CODE_LENGTH = 10;
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const KEY_LENGTH = 32;
const R = 8;
const P = 1;
/**
 * scrypt's cost for the codes: 2^14 (16 MiB), or the password cost when lower (tests). A code's 50
 * random bits, not the cost, keep an offline search out of reach (2^50 derivations); the cost
 * keeps the ten of a new set quick to hash.
 */
const MAX_CODE_COST = 14;

/** Ten new codes as shown (`xxxxx-xxxxx`). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[crypto.randomInt(ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** A typed code as stored (10 characters of the alphabet), or null when it cannot be one. */
function normalisedRecoveryCode(typed: string): string | null {
  const code = typed.toLowerCase().replace(/[\s-]/g, '').replace(/[il]/g, '1').replace(/o/g, '0');
  return code.length === CODE_LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

function costFor(passwordCost: number): number {
  return Math.min(passwordCost, MAX_CODE_COST);
}

function derive(code: string, salt: Buffer, cost: number, client: string): Promise<Buffer> {
  const N = 2 ** cost;
  // The owner has just proved who they are (a new set) or holds the password (a check): the
  // trusted line, so guesses at other accounts' passwords do not hold them up.
  return passwordHashQueue.run(
    client,
    () => scryptInThread(code, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: 256 * N * R * P }, true),
    true,
  );
}

/** The stored form of each code of a new set, under one new salt. */
export async function hashRecoveryCodes(
  codes: readonly string[],
  passwordCost: number,
  client = '',
): Promise<string[]> {
  const salt = crypto.randomBytes(16);
  const cost = costFor(passwordCost);
  return Promise.all(
    codes.map(async (shown) => {
      const key = await derive(normalisedRecoveryCode(shown)!, salt, cost, client);
      return ['scrypt', cost, R, P, salt.toString('base64url'), key.toString('base64url')].join(
        '$',
      );
    }),
  );
}

/**
 * The stored hash among `stored` that the typed code matches, or null. Derives once per salt
 * (once for a set), and compares with each hash in constant time.
 */
export async function matchRecoveryCode(
  typed: string,
  stored: readonly string[],
  client = '',
): Promise<string | null> {
  const code = normalisedRecoveryCode(typed);
  if (!code) return null;
  const derived = new Map<string, Buffer>();
  let found: string | null = null;
  for (const hash of stored) {
    const [scheme, cost, r, p, salt, key] = hash.split('$');
    if (scheme !== 'scrypt' || Number(r) !== R || Number(p) !== P || !salt || !key) continue;
    const prefix = `${cost}$${salt}`;
    let mine = derived.get(prefix);
    if (!mine) {
      mine = await derive(code, Buffer.from(salt, 'base64url'), Number(cost), client);
      derived.set(prefix, mine);
    }
    const expected = Buffer.from(key, 'base64url');
    if (expected.length === mine.length && crypto.timingSafeEqual(expected, mine)) found = hash;
  }
  return found;
}
