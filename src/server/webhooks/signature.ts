/**
 * The signature of a delivery, as Stripe signs its webhooks: the header
 * `Northstar-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=…]` where the HMAC is keyed with the
 * endpoint's secret (its UTF-8 bytes, `whsec_…` whole) over `<t>.<body>`, the body byte for byte
 * as sent. The receiver recomputes it, compares in constant time and refuses an old `t` (replay).
 * docs/api.md shows a receiver's check.
 */
import crypto from 'node:crypto';

/** A new signing secret: `whsec_` and 32 random bytes in base64url. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64url')}`;
}

/**
 * The header's value for `body` sent at `timestamp` (unix seconds): one `v1=` per secret, the
 * current one first. While a rolled secret's overlap lasts the old one signs too, as Stripe does
 * during a roll, so a receiver checking either secret accepts the post.
 */
export function signatureHeader(
  secrets: string | readonly string[],
  timestamp: number,
  body: string,
): string {
  const macs = [secrets]
    .flat()
    .map((secret) =>
      crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'),
    );
  return [`t=${timestamp}`, ...macs.map((mac) => `v1=${mac}`)].join(',');
}
