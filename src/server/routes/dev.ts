import type { FastifyInstance } from 'fastify';

/** Development-only helpers; never registered when NODE_ENV=production. */
export async function registerDevRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dev/outbox', async () => app.mailer.outbox());
}
