import crypto from 'node:crypto';
import { passwordHashQueue } from './hashQueue';
import { scryptInThread, type HashTrust } from './hashThreads';

const KEY_LENGTH = 32;

/**
 * Hashes a password with scrypt (memory-hard; OWASP: N=2^17, r=8, p=1). The result records its
 * parameters, `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`, so the cost can rise without a migration.
 */
export async function hashPassword(password: string, cost = 17, client = ''): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await derive(password, salt, cost, 8, 1, client);
  return ['scrypt', cost, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * `client` (the caller's IP address) gives each client a fair turn in the hash queue; `trusted`
 * (a device cookie of this account, or the password it last signed in with: signinHints.ts) a
 * turn ahead of the line.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  client = '',
  trusted: HashTrust = false,
): Promise<boolean> {
  const [scheme, cost, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !cost || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    Number(cost),
    Number(r),
    Number(p),
    client,
    trusted,
  );
  return key.length === expected.length && crypto.timingSafeEqual(key, expected);
}

/** A hash of a random password: compared against when the email is unknown, so timing tells nothing. */
let decoy: Promise<string> | undefined;
export function decoyHash(cost: number): Promise<string> {
  decoy ??= hashPassword(crypto.randomBytes(16).toString('hex'), cost).catch((error: unknown) => {
    decoy = undefined; // refused by a full hash queue: make it next time
    throw error;
  });
  return decoy;
}

function derive(
  password: string,
  salt: Buffer,
  cost: number,
  r: number,
  p: number,
  client: string,
  trusted: HashTrust = false,
) {
  const N = 2 ** cost;
  return passwordHashQueue.run(
    client,
    () =>
      scryptInThread(
        password.normalize('NFKC'),
        salt,
        KEY_LENGTH,
        { N, r, p, maxmem: 256 * N * r * p },
        trusted,
      ),
    trusted !== false,
  );
}
