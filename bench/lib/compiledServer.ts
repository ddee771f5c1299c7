/**
 * The server as `npm start` runs it: compiled ahead of time (scripts/buildServer.ts) and started
 * with plain `node`, so the memory and load figures are those of what ships, not of tsx
 * transpiling every module (which held about 170 MB more at rest here). Built once per bench run
 * into dist/bench-server, inside the project so its npm imports resolve.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

let built: Promise<string> | undefined;

/** The compiled server's entry (built on first call). */
export function compiledServer(projectRoot: string): Promise<string> {
  built ??= (async () => {
    const outDir = path.join(projectRoot, 'dist', 'bench-server');
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(projectRoot, 'scripts', 'buildServer.ts')],
      { cwd: projectRoot, env: { ...process.env, SERVER_OUT_DIR: outDir } },
    );
    return path.join(outDir, 'main.js');
  })();
  return built;
}
