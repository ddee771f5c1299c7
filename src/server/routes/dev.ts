import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../errors';

/** Whether the request came from this machine (the socket's peer, never a forwarded header). */
function fromLoopback(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? '';
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * Development-only helpers; never registered when NODE_ENV=production. They answer only requests
 * from this machine: the outbox holds every reset and verification link, so anyone who could read
 * it over the network could take over any account, staff included.
 */
export async function registerDevRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request) => {
    if (!fromLoopback(request)) throw notFound('Not found.');
  });
  app.get('/dev/outbox', async () => app.mailer.outbox());
}
