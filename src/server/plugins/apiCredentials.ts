/**
 * `Authorization: Bearer <secret>`: a partner's server calls the API with an organisation's API
 * credential (issue 40 §4), no cookie and no CSRF header. Registered after the session plugin and
 * before the CSRF check, whose hooks follow this one.
 *
 * The decision is made on the route Fastify matched: its scope (`config.apiScope`, or the table
 * in auth/apiCredentials.ts, resolved once as the route is added). Each refusal has its own code
 * (docs/api.md, Error codes): a bearer secret that is malformed or unknown answers 401
 * `credential_invalid`; one revoked, or whose maker is no longer its organisation's
 * Administrator, 401 `credential_revoked`; a route without a scope (the signed-in user's own
 * details, the session, password, second factor, the credentials themselves, staff calls) 403
 * `credential_not_accepted`, never the browser's session instead; a scope the credential lacks 403
 * `scope_missing`, naming it. An address no route answers is 404, as without a credential. Then
 * the request acts as the Administrator's account (`sessionUserId()` answers their id), so every
 * rule the route applies to a session applies unchanged; a credential never carries staff rights.
 * Nothing is cached: every request reads the credential from PostgreSQL, so a revocation holds on
 * every instance from the next request.
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_SECRET_PREFIX, type ApiScope } from '../../shared/api/apiCredentials';
import { bearerSecret, routeScope } from '../auth/apiCredentials';
import { findCredentialCaller, type CredentialCaller } from '../db/apiCredentials';
import { hashToken } from '../db/opaqueTokens';
import { notFound, refusal } from '../errors';
import { actingWithCredential } from '../audit/credentialContext';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API credential the request came with, once checked; null for a browser's request. */
    apiCredential: CredentialCaller | null;
  }
  interface FastifyContextConfig {
    /** The scope an API credential needs to call the route; without one, credentials get 403. */
    apiScope?: ApiScope;
  }
}

export const NOT_A_CREDENTIAL =
  'The API credential is not valid: no credential has this secret (check the whole `Authorization: Bearer ncpk_…` header).';
export const CREDENTIAL_REVOKED =
  'This API credential was revoked. Ask an Administrator of your organisation for a new one.';
export const MAKER_NOT_ADMINISTRATOR =
  'This API credential no longer works: the Administrator who made it is no longer an Administrator of its organisation. Ask a current Administrator for a new one.';
export const CALL_TAKES_NO_CREDENTIAL =
  'This call does not accept API credentials. Sign in to the portal to do this.';
export const scopeMissing = (scope: ApiScope) =>
  `This API credential does not have the scope ${scope}. An Administrator of your organisation can make one that has.`;

/** `Authorization: Bearer …`: the scheme is case-insensitive (RFC 9110). */
const BEARER_SCHEME = /^Bearer(?: |$)/i;
/** Every secret's shape (auth/apiCredentials.ts newApiSecret: 32 bytes in base64url). */
const SECRET_SHAPE = new RegExp(`^${API_SECRET_PREFIX}[A-Za-z0-9_-]{43}$`);

export const apiCredentialsPlugin = fp(
  async (app) => {
    app.decorateRequest('apiCredential', null);

    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat();
      const scope = route.config?.apiScope ?? routeScope(methods[0]!, route.url);
      if (!scope) return;
      route.config = { ...route.config, apiScope: scope };
      // The document says which scope the call needs (OpenAPI 3.1 lets any scheme name roles).
      if (route.schema && !route.schema.hide) {
        route.schema = {
          ...route.schema,
          security: [...(route.schema.security ?? []), { apiCredential: [scope] }],
        };
      }
    });

    // Every request passes here: one without a bearer credential goes on at once, with no
    // promise made (an async hook costs each request one; the statement's 304s felt it).
    app.addHook('onRequest', (request, reply, done) => {
      const header = request.headers.authorization;
      // Another scheme (Basic) is none of this plugin's business, as before credentials existed.
      if (header === undefined || !BEARER_SCHEME.test(header)) {
        done();
        return;
      }
      actAsCredential(request, reply, bearerSecret(header)).then(() => done(), done);
    });

    // The handler runs in the credential's context, so every audit row it writes names the
    // credential (audit/credentialContext.ts). A preHandler, not the onRequest hook above: the
    // body is read in between, and a stream's callbacks need not keep the hook's context.
    app.addHook('preHandler', (request, _reply, done) => {
      const credential = request.apiCredential;
      if (!credential) {
        done();
        return;
      }
      actingWithCredential(credential, done);
    });

    async function actAsCredential(
      request: FastifyRequest,
      reply: FastifyReply,
      secret: string | null,
    ) {
      const invalid = () => {
        void reply.header('www-authenticate', 'Bearer error="invalid_token"');
        return refusal(401, 'credential_invalid', NOT_A_CREDENTIAL);
      };
      // A secret not of the shape every credential has cannot be one: no query for it.
      if (secret === null || !SECRET_SHAPE.test(secret)) throw invalid();
      const caller = await findCredentialCaller(app.db, hashToken(secret));
      if (!caller) throw invalid();
      if ('refused' in caller) {
        void reply.header('www-authenticate', 'Bearer error="invalid_token"');
        throw refusal(
          401,
          'credential_revoked',
          caller.refused === 'revoked' ? CREDENTIAL_REVOKED : MAKER_NOT_ADMINISTRATOR,
        );
      }
      if (request.is404) throw notFound();
      const scope = request.routeOptions.config.apiScope;
      if (!scope) throw refusal(403, 'credential_not_accepted', CALL_TAKES_NO_CREDENTIAL);
      if (!caller.scopes.includes(scope)) {
        void reply.header(
          'www-authenticate',
          `Bearer error="insufficient_scope", scope="${scope}"`,
        );
        throw refusal(403, 'scope_missing', scopeMissing(scope));
      }
      request.apiCredential = caller;
      // The session's lookup, for this request only: every route's `requireUserId()` then names
      // the credential's maker, and no cookie sent beside the credential is ever read.
      const actingAs = Promise.resolve(caller.userId);
      request.sessionUserId = () => actingAs;
    }
  },
  { name: 'api-credentials' },
);
