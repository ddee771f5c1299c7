/**
 * The bench pages (bench/pages/*.html), built in production mode into a temp folder by
 * bench/lib/keystrokes.ts. Same plugins as the app: React and the precompiled form validators.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { formValidatorsPlugin } from '../scripts/formValidatorsPlugin';

const pages = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pages');

export const BENCH_PAGES = ['ours', 'b1', 'b2', 'engine', 'biz-ours', 'biz-b1', 'biz-b2'] as const;

export default defineConfig({
  root: pages,
  base: './',
  publicDir: false,
  logLevel: 'warn',
  plugins: [react(), formValidatorsPlugin()],
  build: {
    // run.ts passes the temp outDir; this default is never committed to.
    outDir: process.env.BENCH_OUT_DIR ?? path.join(pages, '../../node_modules/.bench-pages'),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 10_000,
    rollupOptions: {
      input: Object.fromEntries(
        BENCH_PAGES.map((name) => [name, path.join(pages, `${name}.html`)]),
      ),
    },
  },
});
