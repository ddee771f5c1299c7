/**
 * Which sign-ins from a new browser will likely succeed, known before their password hash runs:
 * a 16-bit keyed digest of the password each account last signed in with on this instance. A
 * sign-in whose password matches it goes in the hash queue's trusted line, as a returning
 * browser's does (hashQueue.ts), and is hashed between the returning browsers and the guesses
 * (hashThreads.ts), so a burst of guesses from many addresses, or one address's allowance of
 * guesses, does not keep a real user on a new laptop waiting behind them.
 *
 * What it tells: only that the password is right, which the answer says anyway. An unknown email
 * and a wrong password take the same line (the digest is computed for every sign-in), so
 * timing under load does not tell whether an email has an account. The digest is kept in this
 * process's memory only, under a key drawn at start and never stored: the database holds no
 * faster check of a password than its scrypt hash, and a memory dump gives 16 bits of a keyed
 * digest. It holds only while the account's password hash is the one it was noted with (a
 * password change or reset voids it on every instance). Another instance, or this one after a
 * restart, has no digest for the account: the sign-in then waits in the fair line, as before.
 */
import crypto from 'node:crypto';

const KEY = crypto.randomBytes(32);

/** Accounts remembered at most (the least recently signed in are dropped): about 1 MB. */
const MAX_ACCOUNTS = 10_000;

interface Hint {
  /** The stored password hash the digest was noted under. */
  passwordHash: string;
  digest: number;
}

const hints = new Map<string, Hint>();

function digestOf(userId: string, password: string): number {
  return crypto
    .createHmac('sha256', KEY)
    .update(userId)
    .update('\0')
    .update(password.normalize('NFKC'))
    .digest()
    .readUInt16BE(0);
}

interface Account {
  id: string;
  password_hash: string | null;
}

/** Notes the password an account has just signed in with (its hash having matched). */
export function noteRightPassword(account: Account, password: string): void {
  if (!account.password_hash) return;
  hints.delete(account.id);
  hints.set(account.id, {
    passwordHash: account.password_hash,
    digest: digestOf(account.id, password),
  });
  if (hints.size > MAX_ACCOUNTS) hints.delete(hints.keys().next().value!);
}

/**
 * Whether `password` is likely the one `account` last signed in with here (one in 65,536 wrong
 * passwords passes; the hash still decides). `account` null (an unknown email) is never.
 */
export function likelyRightPassword(account: Account | null, password: string): boolean {
  // The same work whether the email names an account or not.
  const digest = digestOf(account?.id ?? '', password);
  const hint = account ? hints.get(account.id) : undefined;
  return !!hint && hint.passwordHash === account!.password_hash && hint.digest === digest;
}
