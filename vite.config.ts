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
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
  },
});
