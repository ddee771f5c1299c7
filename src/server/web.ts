import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { notApi } from './routes/contract';
import { registerStaffConsole } from './admin/staffConsole';
import { registerFavicon } from './favicon';
import { registerSamplePages } from './samplePages';
import { isAppPath } from '../shared/config/appPaths';

/** The exchange's profile page, which the standalone portal answers itself. */
const PROFILE_PATH = '/exchange/dashboard/profile';

/**
 * Serves the built customer app under /clearing with history fallback, and the standalone
 * stand-ins for the exchange's other sites (docs/decisions.md, The standalone portal).
 */
export async function registerWeb(app: FastifyInstance): Promise<void> {
  // Everything from here on is pages and files for browsers, not the API: hidden from the API's
  // document, unless routes/contract.ts describes it (the console's downloads, the legal PDFs).
  app.addHook('onRoute', (route) => {
    if (!route.schema?.response) {
      route.schema = { ...route.schema, ...notApi('a page or file for the browser') };
    }
  });
  const webDir = app.config.webDir;
  const indexFile = path.join(webDir, 'index.html');
  // Hashed bundles are looked up per request (wildcard), so a rebuild needs no restart.
  await app.register(fastifyStatic, {
    root: path.join(webDir, 'assets'),
    prefix: '/clearing/assets/',
    index: false,
    wildcard: true,
    decorateReply: true,
    // Hashed file names never change content: cached for a year, never revalidated. (A
    // `setHeaders` cache-control is overwritten by the plugin's own, so it is set here.)
    maxAge: '365d',
    immutable: true,
    // The build writes .br and .gz beside each asset (scripts/compressAssetsPlugin.ts).
    preCompressed: true,
  });

  // Legal documents (sample PDFs shipped in assets/pdfs; a firm replaces them).
  await app.register(fastifyStatic, {
    root: path.resolve('assets/pdfs'),
    prefix: '/assets/pdfs/',
    decorateReply: false,
    index: false,
  });

  const sendApp = (reply: FastifyReply, page = 'index.html') => {
    if (!fs.existsSync(path.join(webDir, page)) || !fs.existsSync(indexFile)) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built yet: run `npm run build`.');
    }
    // index.html names the current hashed bundles: revalidated on every use (and not given the
    // assets' year-long cache-control, which sendFile would otherwise add). `no-cache`, not
    // `no-store`: the shell holds no one's data, and `no-store` keeps every page of the app out
    // of the browser's back/forward cache.
    return reply
      .header('cache-control', 'no-cache')
      .sendFile(page, webDir, { cacheControl: false });
  };

  await registerStaffConsole(app);
  registerFavicon(app);

  app.get('/', async (_request, reply) => reply.redirect('/clearing'));
  app.get('/clearing', async (_request, reply) => sendApp(reply));
  const registrationFormIds = [...app.forms.values()]
    .filter((form) => form.registration)
    .map((form) => form.id);
  app.get<{ Params: { '*': string } }>('/clearing/*', async (request, reply) => {
    // Asset-looking paths that were not found stay 404 instead of answering HTML.
    if (/\.(js|css|map|png|svg|ico|woff2?|br|gz)$/.test(request.url.split('?')[0] ?? '')) {
      return reply.code(404).send({ errorMessage: 'Not found.' });
    }
    // An address the app has no page for: the app (which shows its not-found page), with 404.
    const development = !app.config.production;
    if (!isAppPath(request.params['*'], registrationFormIds, { development })) reply.code(404);
    return sendApp(reply);
  });

  // The exchange's sign-in is the target of a 401 redirect; here it is the portal's own.
  app.get('/exchange/dashboard/signin', async (request, reply) => {
    const query = new URLSearchParams(request.query as Record<string, string>).toString();
    return reply.redirect(`/clearing/signin${query ? `?${query}` : ''}`);
  });
  // The Profile link's page (docs/decisions.md, The profile page): a page of its own in the build,
  // outside /clearing.
  app.get(PROFILE_PATH, async (_request, reply) => sendApp(reply, 'profile.html'));
  app.get('/fcm/*', async (_request, reply) => reply.redirect('/clearing/home'));
  app.get('/disclosures', async (_request, reply) =>
    reply.redirect('/clearing/regulation/disclosures'),
  );
  registerSamplePages(app);
}
