/**
 * A database of its own as it was before a migration (every migration named below `before`
 * applied and recorded), for tests of what that migration does to rows stored earlier.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool } from '../../src/server/db/database';
import { withDatabase } from './globalSetup';

export interface DatabaseBefore {
  pool: pg.Pool;
  /** Ends the pool and drops the database. */
  drop: () => Promise<void>;
}

async function asAdmin(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export async function databaseBefore(before: string): Promise<DatabaseBefore> {
  const database = `portal_test_${crypto.randomBytes(6).toString('hex')}`;
  await asAdmin(`create database ${database}`);
  const pool = createPool(withDatabase(inject('adminDatabaseUrl'), database));
  const folder = path.resolve('src/server/db/migrations');
  await pool.query(
    'create table schema_migrations (name text primary key, applied_at timestamptz not null default now())',
  );
  for (const name of fs.readdirSync(folder).sort()) {
    if (!name.endsWith('.sql') || name >= before) continue;
    await pool.query(fs.readFileSync(path.join(folder, name), 'utf8'));
    await pool.query('insert into schema_migrations (name) values ($1)', [name]);
  }
  return {
    pool,
    drop: async () => {
      await pool.end();
      await asAdmin(`drop database if exists ${database} with (force)`);
    },
  };
}
