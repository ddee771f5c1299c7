/**
 * An endpoint's signing secret at rest: sealed under FIELD_ENCRYPTION_KEYS as sensitive answers
 * are (AES-256-GCM, fieldEncryption/sealedJson.ts), bound to `webhook_endpoints.secret` and the
 * endpoint's id, so a sealed secret copied to another endpoint does not open. It is encrypted,
 * not hashed, because the worker must read it back to sign.
 */
import type { FieldKeyRing } from '../fieldEncryption/keyRing';
import { openSealed, sealAt, type SealContext } from '../fieldEncryption/sealedJson';

export const secretContext = (endpointId: string): SealContext => ({
  column: 'webhook_endpoints.secret',
  row: endpointId,
});

/** The secret as stored: `{ "secret": { "$sealed": "v1.<key-id>.…" } }`. */
export function sealEndpointSecret(
  ring: FieldKeyRing,
  endpointId: string,
  secret: string,
): unknown {
  return sealAt(ring, { secret }, ['/secret'], secretContext(endpointId));
}

/** The stored secret opened (throws `UnreadableFieldError` when its key is not configured). */
export function openEndpointSecret(
  ring: FieldKeyRing,
  endpointId: string,
  stored: unknown,
): string {
  const opened = openSealed(ring, stored as { secret: unknown }, secretContext(endpointId));
  if (typeof opened.secret !== 'string') throw new Error('webhook secret: not sealed text');
  return opened.secret;
}
