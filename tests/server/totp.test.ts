import { HOTP, Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  matchTotp,
  newTotpSecret,
  otpauthUrl,
  timeStep,
  totpCode,
} from '../../src/server/auth/totp';

// RFC 6238 Appendix B: the SHA-1 seed is the ASCII digits 1234567890 twice.
const SEED = Secret.fromUTF8('12345678901234567890');
const SEED_BASE32 = SEED.base32;

describe('TOTP (RFC 6238, through otpauth)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('the library matches the RFC test vector at T=%i', (seconds, code) => {
    const totp = new TOTP({ secret: SEED, digits: 8, period: 30, algorithm: 'SHA1' });
    expect(totp.generate({ timestamp: seconds * 1000 })).toBe(code);
  });

  it('our 6-digit codes are RFC 4226 HOTP at the time step', () => {
    const hotp = new HOTP({ secret: SEED, digits: 6 });
    // RFC 4226 Appendix D, counters 0 and 1.
    expect(hotp.generate({ counter: 0 })).toBe('755224');
    expect(hotp.generate({ counter: 1 })).toBe('287082');
    const now = 1_700_000_000_000;
    expect(totpCode(SEED_BASE32, now)).toBe(hotp.generate({ counter: timeStep(now) }));
  });

  it('makes 160-bit base32 secrets', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
  });

  it('accepts the current code once and refuses a replay of the same step', () => {
    const now = 1_700_000_000_000;
    const code = totpCode(SEED_BASE32, now);
    const step = matchTotp(SEED_BASE32, code, null, now);
    expect(step).toBe(timeStep(now));
    expect(matchTotp(SEED_BASE32, code, step, now)).toBeNull();
    // An earlier step's code after a later step was used: refused too.
    expect(matchTotp(SEED_BASE32, totpCode(SEED_BASE32, now - 30_000), step, now)).toBeNull();
  });

  it('tolerates one step of clock drift, not two', () => {
    const now = 1_700_000_000_000;
    expect(matchTotp(SEED_BASE32, totpCode(SEED_BASE32, now - 30_000), null, now)).toBe(
      timeStep(now) - 1,
    );
    expect(matchTotp(SEED_BASE32, totpCode(SEED_BASE32, now + 30_000), null, now)).toBe(
      timeStep(now) + 1,
    );
    expect(matchTotp(SEED_BASE32, totpCode(SEED_BASE32, now - 60_000), null, now)).toBeNull();
    expect(matchTotp(SEED_BASE32, 'abcdef', null, now)).toBeNull();
    expect(matchTotp(SEED_BASE32, '12345', null, now)).toBeNull();
  });

  it('builds an otpauth URL authenticator apps read', () => {
    const url = new URL(otpauthUrl('JBSWY3DPEHPK3PXP', 'Northstar Clearing', 'a@b.example'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(url.searchParams.get('issuer')).toBe('Northstar Clearing');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Northstar Clearing:a@b.example');
  });
});
