import { Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238) through `otpauth`, a kept library, with the parameters every common
 * authenticator app reads: SHA-1, 30 s steps, 6 digits. What the library does not keep, the
 * replay protection RFC 6238 §5.2 asks for, is here: a code's time step is accepted once.
 */
const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
/** Steps either side of now that still count, for clock drift (RFC 6238 §5.2 recommends one). */
const DRIFT_STEPS = 1;

function totpOf(secret: string, issuer = '', account = 'account'): TOTP {
  return new TOTP({
    issuer,
    label: account,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** A new random secret (160 bits, RFC 4226's recommended length), base32 without padding. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The RFC 6238 time step of a moment. */
export function timeStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code of a base32 secret at a moment. */
export function totpCode(secret: string, nowMs = Date.now()): string {
  return totpOf(secret).generate({ timestamp: nowMs });
}

/**
 * The time step a code matches (now ± one step), or null. A step at or before `lastStep` never
 * matches: RFC 6238 §5.2 asks that a code be accepted once, so a replay is refused.
 */
export function matchTotp(
  secret: string,
  code: string,
  lastStep: number | null,
  nowMs = Date.now(),
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = totpOf(secret);
  const now = timeStep(nowMs);
  // Each step on its own (window 0), so a code valid at a used step cannot hide a later one.
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    if (lastStep !== null && step <= lastStep) continue;
    const at = step * TOTP_PERIOD_SECONDS * 1000;
    if (totp.validate({ token: code, timestamp: at, window: 0 }) === 0) return step;
  }
  return null;
}

/** The `otpauth://` URL an authenticator app reads from a QR code (Key Uri Format). */
export function otpauthUrl(secret: string, issuer: string, account: string): string {
  return totpOf(secret, issuer, account).toString();
}
