import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER } from '../../shared/api/http';
import { newToken } from '../db/opaqueTokens';
import { safeEqual } from '../auth/tokens';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
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
 * Double-submit CSRF protection on every state-changing route by default, multipart included (a
 * multipart POST is CORS-simple and never preflighted): the `csrf_token` cookie, set on any
 * request lacking it, must be echoed in the `x-csrf-token` header, and a cross-site `Origin` is
 * refused outright. Exemptions are the explicit list above.
 */
export const csrfPlugin = fp(async (app, options: { secureCookies: boolean }) => {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.config?.sharedCache && methods.some((method) => !SAFE_METHODS.has(method))) {
      throw new Error(`${route.url}: only GET/HEAD routes may be marked sharedCache`);
    }
  });
  // A callback hook: every request passes here, and pays no promise for it. A refusal answers
  // without calling `done`, which ends the request's hooks there.
  app.addHook('onRequest', (request, reply, done) => {
    let cookieToken = request.cookies[CSRF_COOKIE];
    // Only safe methods may be marked (checked at registration below), so nothing is skipped.
    if (!cookieToken && request.routeOptions.config.sharedCache === true) return done();
    if (!cookieToken) {
      cookieToken = newToken();
      request.cookies[CSRF_COOKIE] = cookieToken;
      reply.setCookie(CSRF_COOKIE, cookieToken, {
        path: '/',
        sameSite: 'strict',
        httpOnly: false, // the app reads it to echo it back in the header
        secure: options.secureCookies,
      });
    }
    if (!csrfProtected(request.method, matchedRoute(request))) return done();
    const origin = request.headers.origin;
    if (origin && originHost(origin) !== request.headers.host) {
      void reply.code(403).send({ errorMessage: 'Cross-site request refused.' });
      return;
    }
    const headerToken = request.headers[CSRF_HEADER];
    if (typeof headerToken !== 'string' || !safeEqual(headerToken, cookieToken)) {
      void reply
        .code(403)
        .send({ errorMessage: 'Your session check failed. Reload the page and try again.' });
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
