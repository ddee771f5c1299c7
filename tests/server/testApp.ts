import { newFieldKey } from '../../src/server/fieldEncryption/keyRing';
import type { FormCatalog } from '../../src/shared/forms/model/compileNode';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
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
  /**
   * Closes the app. One of createTestApp throws listing its responses that were not what their
   * route's schema says (checkResponsesAgainstContract), once per route, status and error.
   */
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
  const contractMismatches = new Set<string>();
  checkResponsesAgainstContract(app, contractMismatches);
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
      if (contractMismatches.size > 0) {
        throw new Error(
          `Responses outside the API contract (issue 40):\n${[...contractMismatches].join('\n')}`,
        );
      }
    },
  };
}

/** One Ajv for the test file's apps: draft-07 (Fastify's dialect), with the document's formats. */
const contractAjv = addFormats(new Ajv({ strict: false, allErrors: true }));
/** The compiled check of each declared answer (or why it has none), compiled once. */
const compiledAnswers = new WeakMap<object, ValidateFunction | string>();
/** The same by the body schema's text: each app merges its routes' schemas into new objects. */
const compiledBodies = new Map<string, ValidateFunction>();

type Json = Record<string, unknown>;

/** What the route's schema declares for a status: the status itself, its range, or nothing. */
function declaredAnswer(schema: Json | undefined, status: number): Json | undefined {
  const response = schema?.response as Record<string, Json> | undefined;
  if (!response) return undefined;
  const range = `${String(status)[0]}xx`;
  return response[status] ?? response[range] ?? response[range.toUpperCase()] ?? response.default;
}

/** The body schema of a declared JSON answer (its content's, or itself without the wrapping). */
function jsonCheck(declared: Json): ValidateFunction | string {
  const cached = compiledAnswers.get(declared);
  if (cached) return cached;
  let check: ValidateFunction | string;
  const content = declared.content as Record<string, { schema?: Json }> | undefined;
  const schema = content ? content['application/json']?.schema : declared;
  if (!schema) {
    check = `answers JSON, documented as ${Object.keys(content ?? {}).join(', ')}`;
  } else {
    // The answer's description and headers are the document's, not the body's.
    const { description: _description, headers: _headers, ...body } = schema;
    try {
      const text = JSON.stringify(body);
      check = compiledBodies.get(text) ?? contractAjv.compile(body);
      compiledBodies.set(text, check);
    } catch (error) {
      check = `its schema does not compile: ${(error as Error).message}`;
    }
  }
  compiledAnswers.set(declared, check);
  return check;
}

/** A JSON answer's body as sent (decompressed when the client asked for compression). */
function jsonBody(payload: unknown, encoding: unknown): unknown {
  let bytes: Buffer | undefined;
  if (typeof payload === 'string') bytes = Buffer.from(payload);
  else if (Buffer.isBuffer(payload)) bytes = payload;
  if (!bytes) return undefined;
  if (encoding === 'gzip') bytes = zlib.gunzipSync(bytes);
  else if (encoding === 'br') bytes = zlib.brotliDecompressSync(bytes);
  else if (encoding === 'deflate') bytes = zlib.inflateSync(bytes);
  return JSON.parse(bytes.toString('utf8'));
}

/**
 * Every response of every test, checked against what its route's schema (the document's source)
 * says of its status (issue 40, Tests that must exist): a status it does not declare, or a JSON
 * body its schema refuses, is a mismatch, kept for `close()` to report. Routes marked `x-not-api`
 * (pages, files for the browser) are not the API and are not checked, nor HEAD (its GET without
 * the body), nor answers no route gave (a path outside the API prefixes: under them, a catch-all
 * route declares its 404).
 */
function checkResponsesAgainstContract(app: FastifyInstance, mismatches: Set<string>): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const schema = request.routeOptions.schema as Json | undefined;
    const url = request.routeOptions.url;
    // HEAD is its GET without the body; the document lists the GET.
    if (url === undefined || schema?.['x-not-api'] || request.method === 'HEAD') {
      return done(null, payload);
    }
    const route = `${request.method} ${url} ${reply.statusCode}`;
    const declared = declaredAnswer(schema, reply.statusCode);
    if (!declared) {
      mismatches.add(`${route}: no schema for this status`);
      return done(null, payload);
    }
    const type = String(reply.getHeader('content-type') ?? '');
    if (!/^application\/(.+\+)?json/.test(type)) return done(null, payload);
    const check = jsonCheck(declared);
    if (typeof check === 'string') {
      mismatches.add(`${route}: ${check}`);
      return done(null, payload);
    }
    let body: unknown;
    try {
      body = jsonBody(payload, reply.getHeader('content-encoding'));
    } catch (error) {
      mismatches.add(`${route}: the body is not JSON (${(error as Error).message})`);
      return done(null, payload);
    }
    if (body !== undefined && !check(body)) {
      mismatches.add(`${route}: ${contractAjv.errorsText(check.errors)}`);
    }
    done(null, payload);
  });
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
