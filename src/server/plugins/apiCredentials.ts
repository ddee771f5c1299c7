/**
 * `Authorization: Bearer <secret>`: a partner's server calls the API with an organisation's API
 * credential (issue 40 §4), no cookie and no CSRF header. Registered after the session plugin and
 * before the CSRF check, whose hooks follow this one.
 *
 * The decision is made on the route Fastify matched: its scope (`config.apiScope`, or the table
 * in auth/apiCredentials.ts, resolved once as the route is added). A credential that is unknown,
 * revoked or whose maker is no longer its organisation's Administrator answers 401; a route that
 * takes no credential, or needs a scope the credential lacks, answers 403. Then the request acts
 * as the Administrator's account (`sessionUserId()` answers their id), so every rule the route
 * applies to a session applies unchanged; a credential never carries staff rights.
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiScope } from '../../shared/api/apiCredentials';
import { bearerSecret, routeScope } from '../auth/apiCredentials';
import { findCredentialCaller, type CredentialCaller } from '../db/apiCredentials';
import { hashToken } from '../db/opaqueTokens';
import { ClientError, forbidden } from '../errors';

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
  'The API credential is not valid: it is unknown or was revoked. Ask an Administrator of your organisation for a new one.';
export const CALL_TAKES_NO_CREDENTIAL =
  'This call does not accept API credentials. Sign in to the portal to do this.';
export const scopeMissing = (scope: ApiScope) =>
  `This API credential does not have the scope ${scope}. An Administrator of your organisation can make one that has.`;

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
      const secret = header === undefined ? null : bearerSecret(header);
      if (secret === null) {
        done();
        return;
      }
      actAsCredential(request, reply, secret).then(() => done(), done);
    });

    async function actAsCredential(request: FastifyRequest, reply: FastifyReply, secret: string) {
      const caller = await findCredentialCaller(app.db, hashToken(secret));
      if (!caller) {
        void reply.header('www-authenticate', 'Bearer error="invalid_token"');
        throw new ClientError(401, NOT_A_CREDENTIAL);
      }
      const scope = scopeOf(request);
      if (!scope) throw forbidden(CALL_TAKES_NO_CREDENTIAL);
      if (!caller.scopes.includes(scope)) {
        void reply.header(
          'www-authenticate',
          `Bearer error="insufficient_scope", scope="${scope}"`,
        );
        throw forbidden(scopeMissing(scope));
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

/** The scope the matched route needs; undefined when none matched or it takes no credential. */
function scopeOf(request: FastifyRequest): ApiScope | undefined {
  return request.is404 ? undefined : request.routeOptions.config.apiScope;
}
