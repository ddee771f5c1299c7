import fp from 'fastify-plugin';

/** The policy of JSON answers: opened as a page, nothing loads and nothing frames it. */
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Security headers on every answer but a 304; `Strict-Transport-Security` when the portal is public
 * over https, on every answer. The pages' CSP needs no `unsafe-eval` (validators are compiled ahead
 * of time); inline styles stay allowed because MUI's emotion injects them at run time. JSON answers
 * carry the strictest policy instead, a fifth of the bytes, and `Cache-Control: no-store` unless
 * their route chose a policy of its own.
 */
export const securityHeadersPlugin = fp(
  async (app, options: { captcha: boolean; hsts: boolean }) => {
    const captchaHosts = options.captcha ? ' https://www.google.com https://www.gstatic.com' : '';
    const csp = [
      "default-src 'self'",
      `script-src 'self'${captchaHosts}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      `frame-src 'self'${captchaHosts}`,
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; ');
    app.addHook('onSend', (_request, reply, payload, done) => {
      // A 304 only refreshes the stored answer, which carries these already (RFC 9110 §15.4.5: no
      // other metadata); a reload of the statement or the listing is mostly 304s.
      if (reply.statusCode !== 304) {
        const json = String(reply.getHeader('content-type') ?? '').startsWith('application/json');
        // JSON is never a page: nothing in it may load or frame anything (OWASP REST Security).
        reply.header('content-security-policy', json ? JSON_CSP : csp);
        reply.header('x-content-type-options', 'nosniff');
        reply.header('referrer-policy', 'same-origin');
        reply.header('x-frame-options', 'DENY');
        if (!json) reply.header('cross-origin-opener-policy', 'same-origin');
        // A JSON answer is one person's data unless its route says otherwise (the public
        // listing, the statement's revalidated copy): no browser or proxy keeps it (ASVS 14.3.2).
        if (json && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      }
      // Only when the portal is reached over https (PUBLIC_URL): sent over plain http it would be
      // ignored, and on a development machine it would pin localhost to https. A year, and every
      // subdomain (ASVS 5.0 3.4.1 at level 2).
      if (options.hsts) {
        reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      }
      done(null, payload);
    });
  },
);
