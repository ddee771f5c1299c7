import fp from 'fastify-plugin';

/**
 * Security headers on every answer; `Strict-Transport-Security` when the portal is public over https. The CSP needs no `unsafe-eval` (validators are compiled ahead
 * of time); inline styles stay allowed because MUI's emotion injects them at run time.
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
    app.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', csp);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'same-origin');
      reply.header('x-frame-options', 'DENY');
      reply.header('cross-origin-opener-policy', 'same-origin');
      // Only when the portal is reached over https (PUBLIC_URL): sent over plain http it would be
      // ignored, and on a development machine it would pin localhost to https. A year, and every
      // subdomain (ASVS 5.0 3.4.1 at level 2).
      if (options.hsts) {
        reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      }
    });
  },
);
