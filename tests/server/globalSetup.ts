import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedServer } from '../../src/server/db/embeddedPostgres';
import { migrate } from '../../src/server/db/migrate';
import { compileServerAndTools } from '../compiled';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin connection to the test PostgreSQL server (embedded, or TEST_DATABASE_URL in CI). */
    adminDatabaseUrl: string;
  }
}

/** The server and tools this project launches, compiled once per run (tests/compiled.ts). */
const COMPILED_DIR = path.resolve('dist/test-server');

export const TEMPLATE_DB = 'portal_test_template';

/**
 * Starts one PostgreSQL for the server tests (embedded in a temporary folder, or the server at
 * TEST_DATABASE_URL: CI starts a plain PostgreSQL server, the production path, and names it
 * there) and migrates a template database that each test file clones. TEST_DATABASE_URL, not
 * DATABASE_URL: the end-to-end run that follows in `npm test` starts the portal as `npm start`
 * does, on its embedded PostgreSQL, and must not inherit a database meant for these tests.
 */
export default async function setup(project: TestProject) {
  const compiled = compileServerAndTools(COMPILED_DIR);
  compiled.catch(() => undefined); // awaited below, once the database is up
  let embedded: EmbeddedServer | undefined;
  let tempDir: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
    fs.chmodSync(tempDir, 0o755);
    embedded = await startEmbeddedPostgres(tempDir);
    adminUrl = embedded.connectionString;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
  await admin.query(`create database ${TEMPLATE_DB}`);
  await admin.end();
  const templatePool = new pg.Pool({ connectionString: withDatabase(adminUrl, TEMPLATE_DB) });
  await migrate(templatePool);
  await templatePool.end();
  project.provide('adminDatabaseUrl', adminUrl);
  await compiled;
  project.provide('compiledDir', COMPILED_DIR);

  return async () => {
    await embedded?.stop();
    if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
