/**
 * The signature of a delivery, as Stripe signs its webhooks: the header
 * `Northstar-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` where the HMAC is keyed with the
 * endpoint's secret (its UTF-8 bytes, `whsec_…` whole) over `<t>.<body>`, the body byte for byte
 * as sent. The receiver recomputes it, compares in constant time and refuses an old `t` (replay).
 * docs/api.md shows a receiver's check.
 */
import crypto from 'node:crypto';

/** A new signing secret: `whsec_` and 32 random bytes in base64url. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64url')}`;
}

/** The header's value for `body` sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  const mac = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}
