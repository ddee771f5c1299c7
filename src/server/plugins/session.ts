import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieName, CSRF_COOKIE, SESSION_COOKIE } from '../../shared/api/http';
import { hashToken } from '../db/opaqueTokens';
import { DEVICE_COOKIE_TTL_MS, deviceCookieUser, issueDeviceCookie } from '../db/deviceCookies';
import { createSession, deleteSession, findSessionUser, SESSION_ABSOLUTE_MS } from '../db/sessions';
import { unauthorized } from '../errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's id, or null. Resolved lazily, once per request. */
    sessionUserId(): Promise<string | null>;
    /** The signed-in user's id; throws 401 when signed out. */
    requireUserId(): Promise<string>;
    /** The stored hash of the session cookie, or null without one. */
    sessionIdHash(): string | null;
    /** The account whose device cookie this browser holds (OWASP device cookies), or null. */
    deviceUserId(): Promise<string | null>;
  }
  interface FastifyReply {
    /** Starts a new session (a new token at every sign-in, ASVS 7.2.4) and sets its cookie. */
    startSession(userId: string): Promise<void>;
    /** Ends the current session server-side and clears its cookie. */
    endSession(): Promise<void>;
    /**
     * Once this browser has proved it knows the account's password (a sign-in, or the password
     * set when verifying the email or accepting an invitation): gives it a device cookie of
     * `userId` unless it holds one already, read only by the sign-in route (signinCookie).
     */
    rememberDevice(userId: string): Promise<void>;
  }
}

/** Database sessions behind an opaque, HttpOnly, SameSite cookie. */
export const sessionPlugin = fp(async (app, options: { secureCookies: boolean }) => {
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: options.secureCookies,
  };
  const sessionCookie = cookieName(SESSION_COOKIE, options.secureCookies);

  // Over https only the `__Host-` cookies count (shared/api/http.ts cookieName): each is read
  // under its plain name, and a plain-named one (planted by a subdomain or over http) is ignored.
  if (options.secureCookies) {
    app.addHook('onRequest', (request, _reply, done) => {
      for (const name of [SESSION_COOKIE, CSRF_COOKIE, DEVICE_COOKIE, PASSKEY_SIGNIN_COOKIE]) {
        const value = request.cookies[cookieName(name, true)];
        if (value === undefined) delete request.cookies[name];
        else request.cookies[name] = value;
      }
      done();
    });
  }

  app.decorateRequest('sessionUserId', function (this: FastifyRequest) {
    const cache = sessionCache.get(this);
    if (cache) return cache;
    const token = this.cookies[SESSION_COOKIE];
    const lookup = token ? findSessionUser(app.db, token) : Promise.resolve(null);
    sessionCache.set(this, lookup);
    return lookup;
  });

  app.decorateRequest('sessionIdHash', function (this: FastifyRequest) {
    const token = this.cookies[SESSION_COOKIE];
    return token ? hashToken(token) : null;
  });

  app.decorateRequest('requireUserId', async function (this: FastifyRequest) {
    const userId = await this.sessionUserId();
    if (!userId) throw unauthorized();
    return userId;
  });

  app.decorateReply('startSession', async function (this: FastifyReply, userId: string) {
    const old = this.request.cookies[SESSION_COOKIE];
    if (old) {
      await deleteSession(app.db, old);
      app.liveSessions.forget(hashToken(old));
    }
    const token = await createSession(app.db, userId, {
      userAgent: this.request.headers['user-agent'],
      ip: this.request.ip,
    });
    sessionCache.set(this.request, Promise.resolve(userId));
    this.setCookie(sessionCookie, token, { ...cookieOptions, maxAge: SESSION_ABSOLUTE_MS / 1000 });
    // The CSRF token of the signed-out browser is no good for the session (csrf.ts).
    this.renewCsrfToken(hashToken(token));
  });

  app.decorateRequest('deviceUserId', function (this: FastifyRequest) {
    const cached = deviceCache.get(this);
    if (cached) return cached;
    const token = this.cookies[DEVICE_COOKIE];
    // Only a place in the hash queue depends on it: unreadable, the browser is a new one.
    const lookup = token
      ? deviceCookieUser(app.db, token).catch((error: unknown) => {
          this.log.warn({ err: error }, 'device cookie not read');
          return null;
        })
      : Promise.resolve(null);
    deviceCache.set(this, lookup);
    return lookup;
  });

  app.decorateReply('rememberDevice', async function (this: FastifyReply, userId: string) {
    // Called after what matters has committed (a session, a verified email): a failure here only
    // costs the browser its place ahead of the line, never the answer.
    try {
      if ((await this.request.deviceUserId()) === userId) return;
      const token = await issueDeviceCookie(app.db, userId);
      const { name, path } = signinCookie(DEVICE_COOKIE, options.secureCookies);
      this.setCookie(name, token, {
        ...cookieOptions,
        sameSite: 'strict',
        path,
        maxAge: DEVICE_COOKIE_TTL_MS / 1000,
      });
    } catch (error) {
      this.request.log.warn({ err: error }, 'device cookie not given');
    }
  });

  app.decorateReply('endSession', async function (this: FastifyReply) {
    const token = this.request.cookies[SESSION_COOKIE];
    if (token) {
      await deleteSession(app.db, token);
      // This instance forgets it at once; the others when the delete's notification arrives.
      app.liveSessions.forget(hashToken(token));
    }
    sessionCache.set(this.request, Promise.resolve(null));
    this.clearCookie(sessionCookie, cookieOptions);
    this.renewCsrfToken(null);
  });
});

/** The device cookie: lasts past sign-out, unlike the session's (a browser stays known). */
export const DEVICE_COOKIE = 'clearing_device';
/** The passkey sign-in's waiting challenge, this browser's alone (routes/auth.ts). */
export const PASSKEY_SIGNIN_COOKIE = 'clearing_passkey_signin';
/** The one route that reads them (routes/index.ts registers the auth routes there). */
const SIGNIN_PATH = '/exchange/api/web/auth/signin';

/**
 * The name and path of a cookie only the sign-in reads (the device cookie, the passkey
 * challenge's). Over http: the plain name, sent to the sign-in route alone. Over https: the
 * `__Host-` name as the session's (ASVS 5.0 3.3.3; issue 39 §5), so a sibling subdomain or a
 * plain-http answer can neither plant nor overwrite one; browsers take a `__Host-` cookie only
 * with Path=/, so it then goes with every request to this host (Secure, HttpOnly, SameSite=Strict)
 * and is still read by the sign-in alone.
 */
export function signinCookie(name: string, secure: boolean): { name: string; path: string } {
  return secure ? { name: cookieName(name, true), path: '/' } : { name, path: SIGNIN_PATH };
}

const sessionCache = new WeakMap<FastifyRequest, Promise<string | null>>();
const deviceCache = new WeakMap<FastifyRequest, Promise<string | null>>();
