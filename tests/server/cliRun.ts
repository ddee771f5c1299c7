import { spawn } from 'node:child_process';
import { compiledEntry } from '../compiled';

/** What a command-line tool run printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs one of the project's command-line tools (`src/cli/admin.ts`, `src/cli/forms.ts`), compiled
 * as `npm start` compiles the server (tests/server/compiled.ts), with `env` over this process's
 * environment and `stdin` written to it.
 */
export function runCli(
  script: 'src/cli/admin.ts' | 'src/cli/forms.ts',
  args: string[],
  env: Record<string, string | undefined>,
  stdin = '',
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [compiledEntry(script), ...args], {
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
