import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this project's globalSetup compiled the server and command-line tools. */
    compiledDir: string;
  }
}

/**
 * Compiles the server and the command-line tools as `npm start` compiles the server
 * (scripts/buildServer.ts), into `outDir`: tests launch them with plain `node`, where tsx
 * transpiled every module at each launch (~2 s), and the tests launch dozens. Each vitest
 * project that launches them compiles its own folder in its globalSetup, so two projects
 * running at once never rebuild a folder the other is running from.
 */
export async function compileServerAndTools(outDir: string): Promise<void> {
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/buildServer.ts'], {
    env: { ...process.env, SERVER_OUT_DIR: outDir },
  });
  if (!fs.existsSync(path.join(outDir, 'main.js'))) throw new Error(`No server built in ${outDir}`);
}

/** The compiled file of a source entry point: `src/cli/admin.ts` → `<compiledDir>/admin.js`. */
export function compiledEntry(
  source: 'src/server/main.ts' | 'src/cli/admin.ts' | 'src/cli/forms.ts',
): string {
  const name = source === 'src/server/main.ts' ? 'main' : path.basename(source, '.ts');
  return path.join(inject('compiledDir'), `${name}.js`);
}
