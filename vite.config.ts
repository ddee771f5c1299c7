import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The customer app is served under /clearing by the Fastify server (src/server/web.ts). */
export default defineConfig({
  root: 'src/web',
  base: '/clearing/',
  plugins: [react()],
  publicDir: false,
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
  },
});
