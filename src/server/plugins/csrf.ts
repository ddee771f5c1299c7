import fp from 'fastify-plugin';
import { CSRF_COOKIE, CSRF_HEADER } from '../../shared/api/http';
import { newToken, safeEqual } from '../auth/tokens';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Double-submit CSRF protection on every state-changing call, multipart included (a multipart POST
 * is CORS-simple and never preflighted): the `csrf_token` cookie, set on any request lacking it,
 * must be echoed in the `x-csrf-token` header, and a cross-site `Origin` is refused outright.
 */
export const csrfPlugin = fp(async (app, options: { secureCookies: boolean }) => {
  app.addHook('onRequest', async (request, reply) => {
    let cookieToken = request.cookies[CSRF_COOKIE];
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
    if (SAFE_METHODS.has(request.method)) return;
    if (!request.url.startsWith('/exchange/api/') && !request.url.startsWith('/clearing/api/')) {
      return;
    }
    const origin = request.headers.origin;
    if (origin && originHost(origin) !== request.headers.host) {
      return reply.code(403).send({ errorMessage: 'Cross-site request refused.' });
    }
    const headerToken = request.headers[CSRF_HEADER];
    if (typeof headerToken !== 'string' || !safeEqual(headerToken, cookieToken)) {
      return reply
        .code(403)
        .send({ errorMessage: 'Your session check failed. Reload the page and try again.' });
    }
  });
});

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null; // `Origin: null` and garbage never match
  }
}
