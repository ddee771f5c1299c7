/**
 * `npm run dev` restarts the API server when a form file changes, a FORMS_DIR form's too (issue
 * 37 §4): the server compiles the forms at start, so an edited form must restart it, or its
 * saves answer 400 and Submit 409 while the browser already has the new version. Checked with
 * `tsx watch` itself: a change to a watched form file reruns the script.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { apiServerArgs } from '../../../scripts/devApiServer';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-api-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the development API server', () => {
  it('watches schemas/ and the FORMS_DIR folder', () => {
    const args = apiServerArgs('tsx-cli', '/project', 'my-forms');
    expect(args).toEqual([
      'tsx-cli',
      'watch',
      '--include',
      '/project/schemas/**/*.json',
      '--include',
      '/project/my-forms/**/*.json',
      'src/server/main.ts',
      '--dev',
    ]);
  });

  it('is restarted by tsx watch when a FORMS_DIR form file is saved', async () => {
    const form = path.join(tmp, 'forms', 'pool', 'pool.schema.json');
    fs.mkdirSync(path.dirname(form), { recursive: true });
    fs.writeFileSync(form, '{}');
    const script = path.join(tmp, 'server.mjs');
    fs.writeFileSync(script, 'console.log("started");\n');
    // The same arguments, the script standing in for the server.
    const [cli, ...rest] = apiServerArgs(
      fileURLToPath(import.meta.resolve('tsx/cli')),
      tmp,
      'forms',
    );
    const args = [cli!, ...rest.slice(0, -2), '--clear-screen=false', script];
    const child = spawn(process.execPath, args, { cwd: tmp });
    let output = '';
    const starts = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`not started ${n} times: ${output}`)),
          20_000,
        );
        const look = () => {
          if (output.split('started').length - 1 >= n) {
            clearTimeout(timer);
            resolve();
          } else setTimeout(look, 100);
        };
        look();
      });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await starts(1);
      // tsx's watcher is ready a moment after the first run.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      fs.writeFileSync(form, '{"title": "Pool"}');
      await starts(2);
    } finally {
      child.kill();
    }
    expect(output).toContain('pool.schema.json');
  }, 60_000);
});
