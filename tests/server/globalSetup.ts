import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedServer } from '../../src/server/db/embeddedPostgres';
import { migrate } from '../../src/server/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin connection to the test PostgreSQL server (embedded, or DATABASE_URL in CI). */
    adminDatabaseUrl: string;
  }
}

export const TEMPLATE_DB = 'portal_test_template';

/**
 * Starts one PostgreSQL for the server tests (embedded in a temporary folder, or the server at
 * DATABASE_URL) and migrates a template database that each test file clones.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedServer | undefined;
  let tempDir: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
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
