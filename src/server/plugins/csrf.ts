import crypto from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieName, CSRF_COOKIE, CSRF_HEADER } from '../../shared/api/http';
import type { FieldKeyRing } from '../fieldEncryption/keyRing';
import { safeEqual } from '../auth/tokens';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Gives the browser a CSRF token bound to the session it now has (its cookie's hash, or none
     * after sign-out): the session plugin calls it whenever it starts or ends one.
     */
    renewCsrfToken(sessionIdHash: string | null): void;
  }
  interface FastifyContextConfig {
    /**
     * The answer is the same for everyone and may be kept by shared caches (`cache-control:
     * public`): it carries no `csrf_token` cookie, which a proxy or CDN could store with it and
     * hand to every later visitor, and minting one per request halved the route's throughput.
     */
    sharedCache?: boolean;
  }
}

/**
 * The only state-changing routes the header check leaves alone, each with its reason. The
 * decision is made on the route Fastify matched (its pattern), never on the raw request line,
 * so a percent-encoded or absolute-form path reaches the same decision as the plain one.
 */
export const CSRF_EXEMPT_ROUTES: readonly { url: string; why: string }[] = [
  // The staff console's plain HTML forms carry the token in a hidden `_csrf` field, which
  // its own preHandler checks against the cookie (a form post cannot set a header).
  { url: '/clearing/admin/registrations/:id/reveal', why: 'console form token' },
  { url: '/clearing/admin/registrations/:id/decision', why: 'console form token' },
  { url: '/clearing/admin/registrations/:id/changes', why: 'console form token' },
  { url: '/clearing/admin/*', why: 'console form token (404 page)' },
];
const EXEMPT = new Set(CSRF_EXEMPT_ROUTES.map((route) => route.url));

/** Whether a request to a matched route must carry the CSRF header (and a same-site Origin). */
export function csrfProtected(method: string, routeUrl: string | undefined): boolean {
  if (SAFE_METHODS.has(method)) return false;
  // No route matched: the not-found handler answers 404 and changes nothing.
  if (routeUrl === undefined) return false;
  return !EXEMPT.has(routeUrl);
}

/**
 * CSRF tokens bound to the session (issue 39 §5; OWASP's signed double-submit cookie): a token is
 * a random nonce and an HMAC of the session cookie's hash (empty when signed out) with that nonce,
 * under a key derived from each CSRF key (`CSRF_KEYS`, auth/csrfKeys.ts), so every instance mints
 * and checks alike, tokens minted before a rotation still check, and removing a field-encryption
 * key (which they were once bound under) refuses no open page. A cookie and header made up
 * together, or a token of another session (one planted before sign-in), no longer pass.
 */
class CsrfTokens {
  private readonly keys: Buffer[];
  constructor(ring: FieldKeyRing) {
    this.keys = ring.keys.map((key) =>
      Buffer.from(crypto.hkdfSync('sha256', key.secret, Buffer.alloc(0), 'csrf-token', 32)),
    );
  }

  private tag(key: Buffer, binding: string, nonce: string): string {
    return crypto
      .createHmac('sha256', key)
      .update(binding)
      .update('\0')
      .update(nonce)
      .digest('base64url');
  }

  mint(binding: string): string {
    const nonce = crypto.randomBytes(16).toString('base64url');
    return `${nonce}.${this.tag(this.keys[0]!, binding, nonce)}`;
  }

  boundTo(token: string, binding: string): boolean {
    const dot = token.indexOf('.');
    if (dot < 1) return false;
    const nonce = token.slice(0, dot);
    const tag = token.slice(dot + 1);
    return this.keys.some((key) => safeEqual(tag, this.tag(key, binding, nonce)));
  }
}

/**
 * Double-submit CSRF protection on every state-changing route by default, multipart included (a
 * multipart POST is CORS-simple and never preflighted): the `csrf_token` cookie, set on any
 * request lacking one bound to its session (CsrfTokens), must be echoed in the `x-csrf-token`
 * header, and a cross-site `Origin` is refused outright. Exemptions are the explicit list above.
 */
export const csrfPlugin = fp(async (app, options: { secureCookies: boolean }) => {
  // Made at the first request, from the keys the app has decorated by then.
  let made: CsrfTokens | undefined;
  const tokens = {
    mint: (binding: string) => (made ??= new CsrfTokens(app.csrfKeys)).mint(binding),
    boundTo: (token: string, binding: string) =>
      (made ??= new CsrfTokens(app.csrfKeys)).boundTo(token, binding),
  };
  const setToken = (request: FastifyRequest, reply: FastifyReply, token: string) => {
    request.cookies[CSRF_COOKIE] = token;
    reply.setCookie(cookieName(CSRF_COOKIE, options.secureCookies), token, {
      path: '/',
      sameSite: 'strict',
      httpOnly: false, // the app reads it to echo it back in the header
      secure: options.secureCookies,
    });
  };
  app.decorateReply('renewCsrfToken', function (this: FastifyReply, sessionIdHash: string | null) {
    setToken(this.request, this, tokens.mint(sessionIdHash ?? ''));
  });
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.config?.sharedCache && methods.some((method) => !SAFE_METHODS.has(method))) {
      throw new Error(`${route.url}: only GET/HEAD routes may be marked sharedCache`);
    }
  });
  // A callback hook: every request passes here, and pays no promise for it. A refusal answers
  // without calling `done`, which ends the request's hooks there.
  app.addHook('onRequest', (request, reply, done) => {
    // A partner's server with an API credential (plugins/apiCredentials.ts, checked before this):
    // no cookie authenticates the request, so no other site can make a browser send it.
    if (request.apiCredential) return done();
    const binding = request.sessionIdHash() ?? '';
    let cookieToken = request.cookies[CSRF_COOKIE];
    // Made up, or another session's: as good as none (a new one is set, and the header's fails).
    if (cookieToken && !tokens.boundTo(cookieToken, binding)) cookieToken = undefined;
    // Only safe methods may be marked (checked at registration below), so nothing is skipped.
    if (!cookieToken && request.routeOptions.config.sharedCache === true) return done();
    if (!cookieToken) {
      cookieToken = tokens.mint(binding);
      setToken(request, reply, cookieToken);
    }
    if (!csrfProtected(request.method, matchedRoute(request))) return done();
    const origin = request.headers.origin;
    if (origin && originHost(origin) !== request.headers.host) {
      void reply
        .code(403)
        .send({ errorMessage: 'Cross-site request refused.', code: 'cross_site' });
      return;
    }
    const headerToken = request.headers[CSRF_HEADER];
    if (typeof headerToken !== 'string' || !safeEqual(headerToken, cookieToken)) {
      void reply.code(403).send({
        errorMessage: 'Your session check failed. Reload the page and try again.',
        code: 'csrf_missing',
      });
      return;
    }
    done();
  });
});

/** The pattern of the route Fastify matched; undefined when none did (the 404 handler). */
function matchedRoute(request: FastifyRequest): string | undefined {
  return request.is404 ? undefined : request.routeOptions.url;
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null; // `Origin: null` and garbage never match
  }
}
