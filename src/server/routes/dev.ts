import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../errors';

/**
 * Whether the request came from a person on this machine: the socket's peer is loopback and no
 * proxy stands between. A reverse proxy on this machine connects from loopback too, on behalf of
 * anyone: a request carrying `X-Forwarded-For` (or `Forwarded`), or any request once `TRUST_PROXY`
 * says a proxy fronts the portal, is not one.
 */
function fromThisMachine(request: FastifyRequest, behindProxy: boolean): boolean {
  if (behindProxy) return false;
  if (request.headers['x-forwarded-for'] !== undefined) return false;
  if (request.headers.forwarded !== undefined) return false;
  const address = request.socket.remoteAddress ?? '';
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * Development-only helpers; never registered when NODE_ENV=production. They answer only requests
 * from this machine, never through a proxy: the outbox holds every reset and verification link, so anyone who could read
 * it over the network could take over any account, staff included.
 */
export async function registerDevRoutes(app: FastifyInstance): Promise<void> {
  const behindProxy = app.config.trustProxy.length > 0;
  app.addHook('onRequest', async (request) => {
    if (!fromThisMachine(request, behindProxy)) throw notFound('Not found.');
  });
  app.get('/dev/outbox', async () => app.mailer.outbox());
}
