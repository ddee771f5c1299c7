import type { FastifyInstance } from 'fastify';

/** Sign-up, sign-in, sign-out, verification, password reset, invitations (spec access §7). */
export async function registerAuthRoutes(
  app: FastifyInstance,
  _options: { checkOnly?: boolean },
): Promise<void> {
  void app;
}
