/**
 * The API credential a request acts with, for the audit trail (issue 40 §4): every row an
 * audited action writes while a credential's request runs names the credential beside the
 * Administrator it acts as (recordAuditEvent reads it here), without each route passing it down.
 * Carried in an AsyncLocalStorage entered before the route's handler runs
 * (plugins/apiCredentials.ts), so work the handler awaits keeps it and no other request sees it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CredentialCaller } from '../db/apiCredentials';

const acting = new AsyncLocalStorage<CredentialCaller>();

/** Runs `next` (and everything it starts) as done with `credential`. */
export function actingWithCredential(credential: CredentialCaller, next: () => void): void {
  acting.run(credential, next);
}

/**
 * What an audit row records of the credential in use, if any: its id (never the secret, which is
 * not kept; nor its name, free text an Administrator typed, which the trail's rule keeps out: the
 * id finds it in api_credentials) and the organisation it acts for.
 */
export function credentialAuditDetail(): Record<string, string> {
  const credential = acting.getStore();
  if (!credential) return {};
  return {
    viaApiCredential: credential.credentialId,
    apiCredentialOrganizationId: credential.organizationId,
  };
}
