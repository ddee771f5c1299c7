import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  otpauthUrl,
  timeStep,
  totpCode,
} from '../../src/server/auth/totp';

// RFC 6238 Appendix B: seeds are ASCII digits repeated to the digest's key length.
const SEEDS = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('matches the RFC test vectors at T=%i', (seconds, sha1, sha256, sha512) => {
    const step = timeStep(seconds * 1000);
    expect(hotp(SEEDS.sha1, step, 8, 'sha1')).toBe(sha1);
    expect(hotp(SEEDS.sha256, step, 8, 'sha256')).toBe(sha256);
    expect(hotp(SEEDS.sha512, step, 8, 'sha512')).toBe(sha512);
  });

  it('matches RFC 4226 HOTP vectors with 6 digits', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314'];
    expected.forEach((code, counter) => expect(hotp(SEEDS.sha1, counter)).toBe(code));
  });

  it('round-trips base32 (RFC 4648 vectors)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI======').toString()).toBe('foobar');
    expect(base32Decode('mzxw 6ytb oi').toString()).toBe('foobar');
    expect(() => base32Decode('not base32!')).toThrow();
  });

  it('accepts the current code once and refuses a replay of the same step', () => {
    const secret = base32Encode(SEEDS.sha1);
    const now = 1_700_000_000_000;
    const code = totpCode(secret, now);
    const step = matchTotp(secret, code, null, now);
    expect(step).toBe(timeStep(now));
    expect(matchTotp(secret, code, step, now)).toBeNull();
  });

  it('tolerates one step of clock drift, not two', () => {
    const secret = base32Encode(SEEDS.sha1);
    const now = 1_700_000_000_000;
    expect(matchTotp(secret, totpCode(secret, now - 30_000), null, now)).not.toBeNull();
    expect(matchTotp(secret, totpCode(secret, now - 60_000), null, now)).toBeNull();
    expect(matchTotp(secret, 'abcdef', null, now)).toBeNull();
    expect(matchTotp(secret, '12345', null, now)).toBeNull();
  });

  it('builds an otpauth URL authenticator apps read', () => {
    const url = new URL(otpauthUrl('JBSWY3DPEHPK3PXP', 'Northstar Clearing', 'a@b.example'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(url.searchParams.get('issuer')).toBe('Northstar Clearing');
    expect(url.searchParams.get('digits')).toBe('6');
  });
});
