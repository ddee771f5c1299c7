/**
 * How `npm run dev` (scripts/dev.ts) starts the API server: `tsx watch`, restarting on a change
 * to any file the server imports and to any form file. The server compiles the forms once at
 * start from schemas/ and FORMS_DIR's folder, which it reads rather than imports: without the
 * form folders watched, an edited form reached the browser (Vite reloads it) but not the server,
 * and saves answered 400 and Submit 409 (another schema version) until a restart (issue 37 §4).
 */
import path from 'node:path';

/** The arguments of `node <tsx cli> …` that run the API server in development. */
export function apiServerArgs(tsxCli: string, cwd: string, formsDir?: string): string[] {
  const folders = [
    path.resolve(cwd, 'schemas'),
    ...(formsDir ? [path.resolve(cwd, formsDir)] : []),
  ];
  const watched = folders.flatMap((folder) => ['--include', `${folder}/**/*.json`]);
  return [tsxCli, 'watch', ...watched, 'src/server/main.ts', '--dev'];
}
