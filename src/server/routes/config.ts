import type { FastifyInstance } from 'fastify';
import type { ConfigResponse } from '../../shared/api/auth';

export async function registerConfigRoutes(app: FastifyInstance): Promise<void> {
  app.get('/config', async (): Promise<ConfigResponse> => ({
    recaptcha_site_key: app.config.recaptchaSiteKey,
  }));
}
