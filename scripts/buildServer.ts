/**
 * Compiles the server ahead of time (part of `npm run build`), so `npm start` runs plain
 * JavaScript under `node` instead of transpiling every module through tsx at each start:
 * src/server/main.ts and what it imports (shared code, schemas) bundled by esbuild into
 * dist/server/main.js, the upload inspection thread into dist/server/inspection.worker.js
 * (where inspectionThreads.ts looks for it) and the `admin` and `forms` command-line tools into
 * admin.js and forms.js; npm packages stay imports. The files the server reads beside its modules
 * (the SQL migrations, the demo statement) are copied next to the bundle, where their
 * `import.meta.url`-relative paths find them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

// SERVER_OUT_DIR: the bench and the server tests compile their own copies (dist/bench-server,
// dist/test-server), leaving dist/server alone. Two folders below the root, as dist/server is:
// src/server/forms.ts finds the project's root two folders up from the bundle.
const outDir = path.resolve(process.env.SERVER_OUT_DIR ?? 'dist/server');
fs.rmSync(outDir, { recursive: true, force: true });

await build({
  entryPoints: {
    main: 'src/server/main.ts',
    'inspection.worker': 'src/server/storage/inspection.worker.ts',
    // The command-line tools, so tests launch them with `node` (tsx transpiles every module at
    // each launch: ~2 s a run, and the server tests launch them dozens of times).
    admin: 'src/cli/admin.ts',
    forms: 'src/cli/forms.ts',
  },
  outdir: outDir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  jsx: 'automatic',
  // A map beside the bundle for reading a trace by hand. Not --enable-source-maps at run time:
  // with it, pdf.js loaded from a data: URL in the inspection thread fails (TypeError), and every
  // PDF would read as unreadable.
  sourcemap: true,
  logLevel: 'warning',
});

fs.cpSync('src/server/db/migrations', path.join(outDir, 'migrations'), { recursive: true });
fs.copyFileSync('src/server/seed/demoStatement.json', path.join(outDir, 'demoStatement.json'));
console.log(`server compiled into ${path.relative(process.cwd(), outDir)}/main.js`);
