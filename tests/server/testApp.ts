import { newFieldKey } from '../../src/server/fieldEncryption/keyRing';
import type { FormCatalog } from '../../src/shared/forms/model/compileNode';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/server/app';
import { createPool } from '../../src/server/db/database';
import { readConfig, type ServerConfig } from '../../src/server/config';
import { createOutboxMailer, type Mailer } from '../../src/server/mail/mailer';
import { CSRF_COOKIE, CSRF_HEADER } from '../../src/shared/api/http';
import { TEMPLATE_DB, withDatabase } from './globalSetup';

export interface TestApp {
  app: FastifyInstance;
  pool: pg.Pool;
  mailer: Mailer;
  config: ServerConfig;
  close(): Promise<void>;
}

/**
 * A real app on its own fresh database (cloned from the migrated template), with a fast password
 * hash cost and a silent logger. Call `close()` in afterAll.
 */
export async function createTestApp(
  overrides: Partial<ServerConfig> = {},
  deps: { forms?: FormCatalog } = {},
): Promise<TestApp> {
  const adminUrl = inject('adminDatabaseUrl');
  const database = `portal_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${database} template ${TEMPLATE_DB}`);
  await admin.end();
  // The production pool (its clients' errors never crash the process): `pool.end()` resolves
  // before the last sockets have closed, and the drop in close() may end those connections.
  const pool = createPool(withDatabase(adminUrl, database));
  const mailer = createOutboxMailer(() => {});
  // Uploads go to a throwaway folder, never the repository's ./data.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-app-test-'));
  const config: ServerConfig = {
    ...readConfig({ NODE_ENV: 'test', PASSWORD_COST: '10' }),
    webDir: '/nonexistent',
    dataDir,
    // A configured key, as production requires (tests that build a production app included).
    fieldEncryptionKeys: newFieldKey('test'),
    auditChainKeys: newFieldKey('test-audit'),
    csrfKeys: newFieldKey('test-csrf'),
    ...overrides,
  };
  const app = await buildApp({ config, pool, mailer, logger: false, ...deps });
  await app.ready();
  return {
    app,
    pool,
    mailer,
    config,
    close: async () => {
      await app.close();
      await pool.end();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${database} with (force)`);
      await cleanup.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The app of one describe block: created before its tests, closed after them. What it returns
 * reads that app (a test uses it as a TestApp); outside the block's tests it throws.
 */
export function testAppForBlock(
  overrides: Partial<ServerConfig> = {},
  deps: { forms?: FormCatalog } = {},
): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(overrides, deps);
  });
  afterAll(async () => current?.close());
  const started = (): TestApp => {
    if (!current) throw new Error('The block’s app exists only while its tests run.');
    return current;
  };
  return {
    get app() {
      return started().app;
    },
    get pool() {
      return started().pool;
    },
    get mailer() {
      return started().mailer;
    },
    get config() {
      return started().config;
    },
    close: () => started().close(),
  };
}

/**
 * A cookie-keeping client over `inject()`, sending the CSRF header the way the web app does.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(private readonly app: FastifyInstance) {}

  async request(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    options: {
      json?: unknown;
      payload?: string | Buffer;
      headers?: Record<string, string>;
      csrf?: boolean;
    } = {},
  ): Promise<LightMyRequestResponse> {
    if (!this.cookies.has(CSRF_COOKIE)) await this.prime();
    const headers: Record<string, string> = { ...options.headers };
    if (options.csrf !== false) headers[CSRF_HEADER] = this.cookies.get(CSRF_COOKIE) ?? '';
    headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await this.app.inject({
      method,
      url,
      headers,
      ...(options.json !== undefined ? { payload: options.json as object } : {}),
      ...(options.payload !== undefined ? { payload: options.payload } : {}),
    });
    // Sign-up and reset requests mail after answering; a test reads the outbox next.
    await this.app.backgroundJobs?.idle();
    for (const cookie of response.cookies) {
      if (cookie.value === '' || (cookie.maxAge !== undefined && cookie.maxAge <= 0)) {
        this.cookies.delete(cookie.name);
      } else {
        this.cookies.set(cookie.name, cookie.value);
      }
    }
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request('GET', url, headers ? { headers } : {});
  }

  post(url: string, json?: unknown, options: { csrf?: boolean } = {}) {
    return this.request('POST', url, { json: json ?? {}, ...options });
  }

  private async prime() {
    const response = await this.app.inject({ method: 'GET', url: '/exchange/api/web/config' });
    const csrf = response.cookies.find((cookie) => cookie.name === CSRF_COOKIE);
    if (csrf) this.cookies.set(CSRF_COOKIE, csrf.value);
  }
}
