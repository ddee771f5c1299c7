import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compressAssetsPlugin } from './scripts/compressAssetsPlugin';
import { formValidatorsPlugin } from './scripts/formValidatorsPlugin';

const reactRouterProduction = path.resolve('node_modules/react-router/dist/production');

/** The customer app is served under /clearing by the Fastify server (src/server/web.ts). */
export default defineConfig(({ command }) => ({
  root: 'src/web',
  base: '/clearing/',
  plugins: [react(), formValidatorsPlugin(), compressAssetsPlugin()],
  publicDir: false,
  resolve: {
    // react-router's package exports point only at its development build (warnings included);
    // builds take its production build, which it ships beside it.
    alias:
      command === 'build'
        ? [
            { find: /^react-router$/, replacement: `${reactRouterProduction}/index.mjs` },
            { find: /^react-router\/dom$/, replacement: `${reactRouterProduction}/dom-export.mjs` },
          ]
        : [],
  },
  build: {
    // WEB_DIR moves the build (the e2e run keeps its own, apart from other builds).
    outDir: process.env.WEB_DIR ? path.resolve(process.env.WEB_DIR) : '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // A budget, not Vite's generic 500 kB: the largest chunk is the registration form's (rjsf,
    // its MUI widgets and the precompiled validators, ~670 kB minified, ~190 kB as brotli),
    // loaded only on that route. Growing past this warns again, and `npm run bench` measures it.
    chunkSizeWarningLimit: 750,
    // Two pages: the customer app, and the profile page the standalone server answers at
    // /exchange/dashboard/profile (outside /clearing: a full page load, as the spec asks).
    rollupOptions: {
      input: {
        main: path.resolve('src/web/index.html'),
        profile: path.resolve('src/web/profile.html'),
      },
    },
  },
}));
