/**
 * `npm run dev`: the API server (tsx watch, restarts on server changes) and the Vite dev server
 * (hot reload of the app and of schema files) together. Open the Vite URL: it serves the app
 * under /clearing and forwards the API, the staff console, the disclosures, the outbox and the
 * PDFs to the API server. Ctrl-C stops both.
 *
 *   PORT      the API server's port (default 8080)
 *   VITE_PORT the dev server's port (default 5173)
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer, type ProxyOptions, type ViteDevServer } from 'vite';
import { apiServerArgs } from './devApiServer';

const apiPort = Number(process.env.PORT ?? 8080);
const vitePort = Number(process.env.VITE_PORT ?? 5173);
const api = `http://localhost:${apiPort}`;
const app = `http://localhost:${vitePort}`;

// Everything the API server answers; the rest of /clearing is the app, served by Vite (which
// also serves the app's source modules, /clearing/api/client.ts among them: hence the exact
// prefixes). The Host header is kept (no changeOrigin): the CSRF check compares it with Origin.
const toApi: ProxyOptions = { target: api, ws: true };
const proxy = Object.fromEntries(
  [
    '/exchange',
    '/clearing/api/web',
    '/clearing/admin',
    '/clearing/disclosures',
    '/dev/outbox',
    '/assets',
    '/disclosures',
    '/fcm',
  ].map((prefix) => [`^${prefix}(/|$|\\?)`, toApi]),
);

// `tsx watch` restarts the server when a file it imports changes, and when a form file changes
// (scripts/devApiServer.ts says why).
const tsx = fileURLToPath(import.meta.resolve('tsx/cli'));
const server = spawn(process.execPath, apiServerArgs(tsx, process.cwd(), process.env.FORMS_DIR), {
  stdio: 'inherit',
  // Links in emails should open the app where it is served in development.
  env: { ...process.env, PORT: String(apiPort), PUBLIC_URL: process.env.PUBLIC_URL ?? app },
});

let stopping = false;
/** Set once Vite listens; a signal may arrive before. */
const started: { vite?: ViteDevServer } = {};

async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  server.kill(signal);
  await started.vite?.close();
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
server.on('exit', (code) => {
  if (!stopping) console.error(`API server exited (${code ?? 'signal'}); stopping the dev server.`);
  void stop('SIGTERM').then(() => process.exit(code ?? 0));
});

started.vite = await createServer({
  configFile: 'vite.config.ts',
  // As `npm run build`: the module-runner config loader (the bundling one warns about a future
  // default this project does not use).
  configLoader: 'runner',
  server: { port: vitePort, strictPort: true, proxy },
});
await started.vite.listen();

/** Resolves once the API server answers (its own banner is printed by then), or after 2 min. */
async function apiReady(): Promise<void> {
  for (let tries = 0; tries < 240 && !stopping; tries++) {
    try {
      await fetch(`${api}/exchange/api/web/config`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
await apiReady();
console.log(
  [
    '',
    '='.repeat(64),
    ` Development: open ${app}/clearing/`,
    ` Form preview (compliance staff): ${app}/clearing/dev/forms`,
    ` API server: ${api} (proxied)   Outbox: ${app}/dev/outbox`,
    '='.repeat(64),
  ].join('\n'),
);
