/**
 * API credentials' secrets and which calls they may make (issue 40 §4). A secret is 256 random
 * bits, kept only as its SHA-256 (db/opaqueTokens.ts hashToken), like the session cookie: a slow,
 * salted hash protects a secret someone could guess (a password); no one guesses 256 bits, so a
 * fast hash loses nothing, lets a request find its credential by an index, and keeps every API
 * call from paying a key derivation (which would hand anyone a cheap way to load the server).
 */
import crypto from 'node:crypto';
import { API_SECRET_PREFIX, type ApiScope } from '../../shared/api/apiCredentials';

/** A new secret (shown once) and what is stored of it. */
export function newApiSecret(): { secret: string; secretStart: string } {
  const secret = `${API_SECRET_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
  return { secret, secretStart: secret.slice(0, API_SECRET_PREFIX.length + 6) };
}

/** The secret of an `Authorization: Bearer <secret>` header; null for any other header. */
export function bearerSecret(header: string): string | null {
  const match = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header);
  return match ? match[1]! : null;
}

const WEB = '/exchange/api/web';

/**
 * The scope each call a credential may make needs, by `METHOD /path` as Fastify registers it (as
 * routes/contract.ts names routes). A call not here, and whose route sets no `config.apiScope`,
 * refuses credentials (403): sign-up, sign-in, the e-sign consent, the profile, settings, staff
 * calls. What a partner may do is in docs/api.md, Server-to-server access.
 */
const ROUTE_SCOPES: Record<string, ApiScope> = {
  [`GET ${WEB}/forms`]: 'applications:write',
  [`GET ${WEB}/forms/:formId`]: 'applications:write',
  ...Object.fromEntries(
    [WEB, '/exchange/api'].flatMap((prefix) => [
      [`GET ${prefix}/applications/:formId`, 'applications:write'],
      [`PUT ${prefix}/applications/:formId`, 'applications:write'],
      [`POST ${prefix}/applications/:formId/files`, 'applications:write'],
      [`DELETE ${prefix}/applications/:formId/files`, 'applications:write'],
    ]),
  ),
  [`GET ${WEB}/registration`]: 'registrations:read',
  [`GET ${WEB}/customer/:organizationId/statement`]: 'statements:read',
};

/** A registration form's submission: `POST …/registration/{formId}` (one route per form). */
const SUBMISSION = /^POST \/exchange\/api\/web\/registration\/(?!user$)[a-z0-9-]+$/;

/** The scope a route needs of a credential, or undefined when it takes none. */
export function routeScope(method: string, url: string): ApiScope | undefined {
  const key = `${method} ${url}`;
  return ROUTE_SCOPES[key] ?? (SUBMISSION.test(key) ? 'applications:write' : undefined);
}
