/**
 * The keys CSRF tokens are bound under (plugins/csrf.ts; issue 39 §5): `CSRF_KEYS`, listed as
 * `FIELD_ENCRYPTION_KEYS` is (`<key-id>:<base64 32 bytes>`, comma-separated, the first minting
 * and every one checking); development makes `DATA_DIR/csrf.key`. Keys of their own, so that
 * removing a field-encryption key after a rotation leaves every open page's token good: tokens
 * were bound under the field keys, and an open page's next POST was refused once. Instances
 * behind one load balancer share them; rotating puts a new key first and removes the old one no
 * sooner than a day later (a session lasts at most 12 hours; a signed-out page's token is kept as
 * long as the page stays open).
 */
import { loadKeyRing, type FieldKeyRing } from '../fieldEncryption/keyRing';

const CSRF_KEY_FILE = 'csrf.key';

/** The CSRF tokens' keys: `CSRF_KEYS`, or the development key file beside the field key's. */
export function loadCsrfKeys(options: {
  csrfKeys: string | undefined;
  production: boolean;
  dataDir: string;
}): FieldKeyRing {
  return loadKeyRing({
    configured: options.csrfKeys,
    variable: 'CSRF_KEYS',
    production: options.production,
    dataDir: options.dataDir,
    devFile: CSRF_KEY_FILE,
    productionMissing:
      'CSRF_KEYS is not set: production needs the key that CSRF tokens are checked with (see "CSRF keys" in docs/operators.md).',
  });
}
