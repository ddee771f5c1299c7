/**
 * Builds the Fastify instance: plugins first (database, cookies, sessions, CSRF, security
 * headers, the unread body of an early answer, rate limits, health and metrics), then the API
 * routes, then the web app. Multipart is read only where a route takes form data
 * (storage/multipartForm.ts).
 * Tests call `buildApp(...).inject()`; `main.ts` listens.
 */
import crypto from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type pg from 'pg';
import { createBackgroundJobs, type BackgroundJobs } from './backgroundJobs';
import type { ServerConfig } from './config';
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
  RETRY_AFTER_SECONDS,
} from './db/availability';
import { DatabaseListener } from './db/notifications';
import { StatementCache } from './statements/statementCache';
import { LiveSessionCache } from './auth/liveSessions';
import { postgresRateLimitStore } from './db/rateLimits';
import { ClientError, validationRefusal } from './errors';
import { defaultErrorCode } from '../shared/api/http';
import { loadFieldKeys, type FieldKeyRing } from './fieldEncryption/keyRing';
import { bindAuditChainKeys, loadAuditChainKeys } from './audit/auditChainKeys';
import { loadCsrfKeys } from './auth/csrfKeys';
import { logOneLinePerRequest, logSerializers, requestLogger } from './logging';
import type { Mailer } from './mail/mailer';
import { apiContractPlugin } from './plugins/apiContract';
import { apiCredentialsPlugin } from './plugins/apiCredentials';
import { idempotencyPlugin } from './plugins/idempotency';
import { csrfPlugin } from './plugins/csrf';
import { answerClientError, errorBodyPlugin } from './plugins/clientErrors';
import { inputGuardPlugin } from './plugins/inputGuard';
import { operationsPlugin } from './plugins/operations';
import { routeTablePlugin } from './plugins/routeTable';
import { securityHeadersPlugin } from './plugins/securityHeaders';
import { sessionPlugin } from './plugins/session';
import { unreadBodyPlugin } from './plugins/unreadBody';
import { registerApiRoutes } from './routes';
import { registerSpoolCleanup } from './storage/documentStore';
import { MULTIPART_BODY_LIMIT } from './storage/uploadLimits';
import { registerWeb } from './web';
import { registerWebhookDelivery } from './webhooks/deliveryWorker';
import { portalForms, unavailablePortalForms } from './forms';
import type { FormCatalog } from '../shared/forms/model/compileNode';
import { notFoundPage } from './samplePages';

declare module 'fastify' {
  interface FastifyInstance {
    db: pg.Pool;
    /** LISTEN/NOTIFY between the instances on this database (caches, the market feed). */
    notifications: DatabaseListener;
    /** Each organisation's serialised statement, dropped on every instance when one lands. */
    statementCache: StatementCache;
    /** Live sessions the statement GET may take from memory (auth/liveSessions.ts). */
    liveSessions: LiveSessionCache;
    config: ServerConfig;
    mailer: Mailer;
    backgroundJobs: BackgroundJobs;
    /** The compiled forms of schemas/, by form id (src/server/forms.ts). */
    forms: FormCatalog;
    /** The keys of sensitive answers at rest (SSN, passport number, date of birth). */
    fieldKeys: FieldKeyRing;
    /** The keys CSRF tokens are bound under (auth/csrfKeys.ts), apart from the field keys. */
    csrfKeys: FieldKeyRing;
  }
}

interface AppDeps {
  config: ServerConfig;
  pool: pg.Pool;
  mailer: Mailer;
  /** The forms to serve; the folders of schemas/ when not given. */
  forms?: FormCatalog;
  /** The keys of sensitive answers; by default from the configuration (`loadFieldKeys`). */
  fieldKeys?: FieldKeyRing;
  /** The audit chain's keys; by default from the configuration (`loadAuditChainKeys`). */
  auditChainKeys?: FieldKeyRing;
  /** The CSRF tokens' keys; by default from the configuration (`loadCsrfKeys`). */
  csrfKeys?: FieldKeyRing;
  /** Pino options, or false for silence (tests); `stream` captures the lines (log tests). */
  logger?: boolean | { level: string; stream?: { write(line: string): void } };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const secureCookies = deps.config.publicUrl.startsWith('https://');
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: typeof deps.logger === 'object' ? deps.logger.level : deps.config.logLevel,
            serializers: logSerializers,
            ...(typeof deps.logger === 'object' && deps.logger.stream
              ? { stream: deps.logger.stream }
              : {}),
          },
    // One line per request instead (logOneLinePerRequest, below).
    logController: new LogController({ disableRequestLogging: true }),
    // Each request's logger is made when the request first writes a line (logging.ts).
    childLoggerFactory: requestLogger,
    bodyLimit: 1024 * 1024,
    // Only the proxies the operator names (TRUST_PROXY) may set X-Forwarded-For; none by default.
    trustProxy: deps.config.trustProxy.length > 0 ? deps.config.trustProxy : false,
    genReqId: () => crypto.randomUUID(),
    // A URL that cannot be decoded (`%ED%A0%80`) is the client's fault: 400 with a message.
    frameworkErrors: (_error, _request, reply) => {
      // The generic reply type of this option is unresolved; it is an ordinary reply.
      void (reply as FastifyReply)
        .code(400)
        .send({ errorMessage: 'The address is not valid.', code: 'invalid_request' });
    },
    clientErrorHandler: answerClientError,
  });
  app.decorate('db', deps.pool);
  const notifications = new DatabaseListener(deps.pool, (line) => app.log.warn(line));
  app.decorate('notifications', notifications);
  app.addHook('onClose', async () => notifications.close());
  const statementCache = new StatementCache(deps.pool);
  await statementCache.listen(notifications);
  app.decorate('statementCache', statementCache);
  const liveSessions = new LiveSessionCache(deps.pool);
  await liveSessions.listen(notifications);
  app.decorate('liveSessions', liveSessions);
  app.decorate('config', deps.config);
  app.decorate('mailer', deps.mailer);
  app.decorate('forms', deps.forms ?? portalForms());
  if (!deps.forms) {
    // A broken form folder is left out, the others serve; CI's `forms check` stops it first.
    for (const [formId, reasons] of unavailablePortalForms()) {
      app.log.error(
        `The form ${formId} is not available (run \`npm run forms -- check\`):\n${reasons.join('\n')}`,
      );
    }
  }
  app.decorate('fieldKeys', deps.fieldKeys ?? loadFieldKeys(deps.config));
  app.decorate('csrfKeys', deps.csrfKeys ?? loadCsrfKeys(deps.config));
  // Every audit row appended through this pool is keyed (audit/auditChainKeys.ts).
  bindAuditChainKeys(deps.pool, deps.auditChainKeys ?? loadAuditChainKeys(deps.config));
  app.decorate('backgroundJobs', createBackgroundJobs(app.log));
  app.addHook('onClose', async () => app.backgroundJobs.idle());
  logOneLinePerRequest(app);

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ClientError) {
      if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(error.statusCode).send(error.body());
    }
    const {
      statusCode: status,
      validation,
      message: text,
    } = error as {
      statusCode?: number;
      validation?: unknown;
      message: string;
    };
    if (status && status >= 400 && status < 500) {
      // Fastify's own 4xx: malformed JSON, schema validation, body too large, rate limit.
      if (validation) {
        return reply.code(status).send(validationRefusal(text, validation).body());
      }
      return reply.code(status).send({ errorMessage: text, code: defaultErrorCode(status) });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is away (restarting, unreachable): a clear, retryable answer, not a 500.
      request.log.warn(
        { incidentId: request.id, reason: (error as Error).message },
        'database unavailable',
      );
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ errorMessage: DATABASE_UNAVAILABLE_MESSAGE, code: 'unavailable' });
    }
    const incidentId = request.id;
    request.log.error({ err: error, incidentId }, 'request failed');
    return reply.code(500).send({
      errorMessage: 'Our website is having some issues. Please try again later.',
      code: 'internal_error',
      incidentId,
    });
  });

  // Fastify's default 404 logs "Route GET:<full url> not found", query string and any emailed
  // token included; this one logs nothing beyond the (redacted) request line.
  app.setNotFoundHandler((request, reply) => {
    // A browser opening an address nothing answers gets a page saying so; a client of the API
    // (which never asks for HTML first) gets its JSON.
    const page = request.method === 'GET' || request.method === 'HEAD';
    if (page && /^text\/html\b/.test(request.headers.accept ?? '')) {
      return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage());
    }
    return reply.code(404).send({ errorMessage: 'Not found.', code: 'not_found' });
  });

  await app.register(routeTablePlugin);
  // Before every route: the contract plugin's hooks describe each one as it is added.
  await app.register(apiContractPlugin, { referencePage: !deps.config.production });
  await app.register(cookie);
  // API answers and pages compressed for clients that accept it (brotli, else gzip); built
  // assets come precompressed (web.ts), so this only compresses what is made per request.
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(sessionPlugin, { secureCookies });
  // A partner's `Authorization: Bearer` credential, checked before the CSRF check looks.
  await app.register(apiCredentialsPlugin);
  // Idempotency-Key on state-changing POSTs (after the contract: it reads each route's security).
  await app.register(idempotencyPlugin);
  await app.register(csrfPlugin, { secureCookies });
  await app.register(inputGuardPlugin);
  await app.register(errorBodyPlugin);
  await app.register(securityHeadersPlugin, {
    captcha: deps.config.recaptchaSiteKey !== '',
    hsts: secureCookies,
  });
  // An answer sent mid-upload still reaches the browser: the rest of the body is read first.
  await app.register(unreadBodyPlugin, { multipartBodyLimit: MULTIPART_BODY_LIMIT });
  registerSpoolCleanup(app);
  // Posts the queued webhook deliveries while the server listens (webhooks/deliveryWorker.ts).
  registerWebhookDelivery(app);
  // Counters in PostgreSQL: a limit counts requests to every instance on this database.
  await app.register(rateLimit, { global: false, store: postgresRateLimitStore(deps.pool) });

  // Health, readiness and metrics: before the routes, so every route's answers are counted.
  await app.register(operationsPlugin);
  await notifications.start();
  await registerApiRoutes(app);
  await registerWeb(app);
  return app;
}
