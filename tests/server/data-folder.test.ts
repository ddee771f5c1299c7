import { newFieldKey } from '../../src/server/fieldEncryption/keyRing';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledEntry } from '../compiled';
import {
  DataFolderError,
  letPostgresUserIn,
  startEmbeddedPostgres,
} from '../../src/server/db/embeddedPostgres';

const isRoot = process.getuid?.() === 0;

/**
 * A data folder made the way an operator would (`DATA_DIR=$(mktemp -d)`: mode 700). As root,
 * PostgreSQL runs as the `postgres` user, which could not enter such a folder.
 */
describe('the data folder', () => {
  const folders: string[] = [];
  const tempFolder = () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-datadir-'));
    folders.push(folder);
    return folder;
  };
  afterAll(() => {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('starts the embedded PostgreSQL in a fresh mode-700 folder', async () => {
    const dataDir = tempFolder();
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    const server = await startEmbeddedPostgres(dataDir);
    await server.stop();
    // The portal's own folder gains traverse permission at most: never read or write for others.
    expect(fs.statSync(dataDir).mode & 0o006).toBe(0);
  }, 120_000);

  const closedMessage = (closed: string, dataDir: string) =>
    `PostgreSQL runs as the system user "postgres" and cannot enter ${closed} (mode 700), ` +
    `which holds DATA_DIR ${dataDir}: choose a DATA_DIR outside it, run \`chmod o+x ${closed}\`, ` +
    `or set DATABASE_URL to use another PostgreSQL server.`;

  it("refuses a DATA_DIR below a closed folder that is not the portal's to open", () => {
    const closed = tempFolder();
    const dataDir = path.join(closed, 'data');
    fs.mkdirSync(dataDir);
    expect(() => letPostgresUserIn(dataDir)).toThrow(
      new DataFolderError(closedMessage(closed, dataDir)),
    );
    expect(fs.statSync(closed).mode & 0o777).toBe(0o700);
  });

  // The suite runs as root here and in CI (the container installs packages), where PostgreSQL
  // runs as `postgres` and the check applies.
  it('stops the start with that one sentence, no stack trace', () => {
    expect(isRoot).toBe(true);
    const closed = tempFolder();
    const dataDir = path.join(closed, 'data');
    // The embedded server's start is under test: a DATABASE_URL in the environment would bypass it.
    const { DATABASE_URL: _external, ...env } = process.env;
    const started = spawnSync(process.execPath, [compiledEntry('src/server/main.ts')], {
      env: {
        ...env,
        DATA_DIR: dataDir,
        PORT: '0',
        NODE_ENV: 'production',
        FIELD_ENCRYPTION_KEYS: newFieldKey('test'),
        AUDIT_CHAIN_KEYS: newFieldKey('test-audit'),
        CSRF_KEYS: newFieldKey('test-csrf'),
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const lines = started.stderr.split('\n').filter((line) => line && !line.startsWith('npm warn'));
    expect(started.status).toBe(1);
    expect(lines).toEqual([closedMessage(closed, dataDir)]);
  }, 90_000);
});
