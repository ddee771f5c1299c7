import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { formValidatorsPlugin } from './scripts/formValidatorsPlugin';

/** The customer app is served under /clearing by the Fastify server (src/server/web.ts). */
export default defineConfig({
  root: 'src/web',
  base: '/clearing/',
  plugins: [react(), formValidatorsPlugin()],
  publicDir: false,
  build: {
    // WEB_DIR moves the build (the e2e run keeps its own, apart from other builds).
    outDir: process.env.WEB_DIR ? path.resolve(process.env.WEB_DIR) : '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
  },
});
