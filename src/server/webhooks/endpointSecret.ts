/**
 * An endpoint's signing secret at rest: sealed under FIELD_ENCRYPTION_KEYS as sensitive answers
 * are (AES-256-GCM, fieldEncryption/sealedJson.ts), bound to `webhook_endpoints.secret` and the
 * endpoint's id, so a sealed secret copied to another endpoint does not open. It is encrypted,
 * not hashed, because the worker must read it back to sign.
 *
 * While a replaced secret still signs (an Administrator rolled it with an overlap), the same
 * document holds it sealed beside the new one, with the time it stops (plain: not a secret). One
 * document, so rotate-key seals both again and one row update replaces both at once.
 */
import type { FieldKeyRing } from '../fieldEncryption/keyRing';
import { openSealed, sealAt, type SealContext } from '../fieldEncryption/sealedJson';

export const secretContext = (endpointId: string): SealContext => ({
  column: 'webhook_endpoints.secret',
  row: endpointId,
});

/** The stored document opened: the secret, and the replaced one while it still signs. */
interface EndpointSecrets {
  secret: string;
  previous?: string;
  previousUntil?: string;
}

/**
 * The secret as stored: `{ "secret": { "$sealed": "v1.<key-id>.…" } }`, and while a replaced one
 * still signs, `"previous": { "$sealed": … }, "previousUntil": "<ISO time>"`.
 */
export function sealEndpointSecret(
  ring: FieldKeyRing,
  endpointId: string,
  secret: string,
  previous?: { secret: string; until: Date },
): unknown {
  if (!previous) return sealAt(ring, { secret }, ['/secret'], secretContext(endpointId));
  const document: EndpointSecrets = {
    secret,
    previous: previous.secret,
    previousUntil: previous.until.toISOString(),
  };
  return sealAt(ring, document, ['/secret', '/previous'], secretContext(endpointId));
}

function openSecrets(ring: FieldKeyRing, endpointId: string, stored: unknown): EndpointSecrets {
  const opened = openSealed(ring, stored as EndpointSecrets, secretContext(endpointId));
  if (typeof opened.secret !== 'string') throw new Error('webhook secret: not sealed text');
  return opened;
}

/** The current secret opened (throws `UnreadableFieldError` when its key is not configured). */
export function openEndpointSecret(
  ring: FieldKeyRing,
  endpointId: string,
  stored: unknown,
): string {
  return openSecrets(ring, endpointId, stored).secret;
}

/** Every secret a post at `now` is signed with: the current one, then a replaced one still on. */
export function signingSecrets(
  ring: FieldKeyRing,
  endpointId: string,
  stored: unknown,
  now: Date,
): string[] {
  const opened = openSecrets(ring, endpointId, stored);
  const previousOn =
    typeof opened.previous === 'string' &&
    opened.previousUntil !== undefined &&
    now < new Date(opened.previousUntil);
  return previousOn ? [opened.secret, opened.previous!] : [opened.secret];
}
