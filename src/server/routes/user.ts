import type { FastifyInstance } from 'fastify';

/** The current user, 2FA and settings (spec access §7). */
export async function registerUserRoutes(
  app: FastifyInstance,
  _options: { currentUserOnly?: boolean },
): Promise<void> {
  void app;
}
