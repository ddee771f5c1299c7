import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The portal's icon: the firm's initial on its navy (the header's colours). */
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#10243e"/><path d="M9 24V8h3.2l7.6 10.6V8H23v16h-3.2l-7.6-10.6V24z" fill="#fff"/></svg>`;

const FAVICON_PATH = '/favicon.svg';

/**
 * `/favicon.svg`, named by the app's and the console's pages, and `/favicon.ico`, which browsers
 * ask for on pages that name none (PDFs, JSON): both answer the icon instead of a 404.
 */
export function registerFavicon(app: FastifyInstance): void {
  const send = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON_SVG);
  app.get(FAVICON_PATH, { config: { sharedCache: true } }, send);
  app.get('/favicon.ico', { config: { sharedCache: true } }, send);
}
