import type { FastifyInstance } from 'fastify';
import { marketStreamPlugin } from '../market/streamRoutes';
import { registerAccountRoutes, registerEmailConfirmation } from './account';
import { registerAdminRoutes } from './admin';
import { registerApiCredentialRoutes } from './apiCredentials';
import { registerApplicationRoutes } from './applications';
import { registerAuthRoutes } from './auth';
import { registerConfigRoutes } from './config';
import { registerDevRoutes } from './dev';
import { registerDisclosureRoutes } from './disclosures';
import { registerEsignConsentRoutes } from './esignConsent';
import { registerFormRoutes } from './forms';
import { registerLeiRoutes } from './lei';
import { registerRegistrationRoutes } from './registration';
import { registerStatementRoutes } from './statement';
import { registerUserRoutes } from './user';
import { registerWebhookRoutes } from './webhooks';

/** Every API area, mounted under the prefixes the specification names. */
export async function registerApiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(registerConfigRoutes, { prefix: '/exchange/api/web' });
  await app.register(registerAuthRoutes, { prefix: '/exchange/api/web' });
  await app.register(registerUserRoutes, { prefix: '/exchange/api/web' });
  await app.register(registerAccountRoutes, { prefix: '/exchange/api/web' });
  await app.register(registerApiCredentialRoutes, { prefix: '/exchange/api/web' });
  await app.register(registerEmailConfirmation, { prefix: '/exchange/api/web' });
  await app.register(registerRegistrationRoutes, { prefix: '/exchange/api/web' });
  await app.register(registerFormRoutes, { prefix: '/exchange/api/web' });
  await app.register(registerApplicationRoutes, { prefix: '/exchange/api/web' });
  // The applications contract named them under /exchange/api: both answer, one handler.
  await app.register(registerApplicationRoutes, { prefix: '/exchange/api' });
  await app.register(registerEsignConsentRoutes, { prefix: '/exchange/api/web' });
  await app.register(registerLeiRoutes, { prefix: '/exchange/api/web' });
  await app.register(registerStatementRoutes, { prefix: '/exchange/api/web' });
  await app.register(registerWebhookRoutes, { prefix: '/exchange/api/web' });
  await app.register(registerAdminRoutes, { prefix: '/exchange/api/admin' });
  await app.register(marketStreamPlugin);
  // docs/decisions.md, Paths: /clearing/api/web answers auth/signin (GET) and user as well.
  await app.register(registerAuthRoutes, { prefix: '/clearing/api/web', checkOnly: true });
  await app.register(registerUserRoutes, { prefix: '/clearing/api/web', currentUserOnly: true });
  // Public disclosures: the listing and the PDFs under /clearing/disclosures (docs/decisions.md,
  // Paths).
  await app.register(registerDisclosureRoutes);
  if (!app.config.production) await app.register(registerDevRoutes);
  // Unknown API paths answer JSON, never the web app.
  app.all('/exchange/api/*', async (_request, reply) =>
    reply.code(404).send({ errorMessage: 'Not found.' }),
  );
  app.all('/clearing/api/*', async (_request, reply) =>
    reply.code(404).send({ errorMessage: 'Not found.' }),
  );
}
