import type { FastifyInstance } from 'fastify';
import { firm, type SiteLink } from '../shared/config/firm';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/**
 * The firm's other sites (Products, About, Docs, Help, Privacy Policy, Terms of Use, …) stand
 * outside the portal. The standalone portal answers each link of the firm's configuration that is
 * a path on this host with a short page clearly marked as a sample, as the sample PDFs are, so a
 * newcomer following the header or footer never meets a raw error. A link the firm points at a
 * full URL is not served here.
 */
export function registerSamplePages(app: FastifyInstance): void {
  const served = new Set<string>();
  for (const link of Object.values(firm.siteLinks) as SiteLink[]) {
    if (!link.href.startsWith('/') || link.href.startsWith('//')) continue;
    // `/exchange/docs/` and `/exchange/docs` are the same page to a reader.
    const path = link.href.length > 1 ? link.href.replace(/\/$/, '') : link.href;
    for (const variant of [path, `${path}/`]) {
      if (served.has(variant)) continue;
      served.add(variant);
      app.get(variant, async (_request, reply) =>
        reply.type('text/html; charset=utf-8').send(samplePage(link.label)),
      );
    }
  }
}

export const SAMPLE_NOTICE = 'Sample page: the firm running this portal replaces it with its own.';

const SAMPLE_CSS = `
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0b1f3a;background:#f5f7fa}
header{background:#0b1f3a;color:#fff;padding:14px 24px;font-weight:700;font-size:1.15rem}
header a{color:inherit;text-decoration:none}
main{max-width:720px;margin:32px auto;padding:0 24px}
.sample{border:2px dashed #b45309;background:#fff7ed;color:#7c2d12;padding:12px 16px;border-radius:6px;font-weight:600}
a{color:#1d4ed8}
`;

function samplePage(title: string): string {
  return `<!doctype html>\n${renderToStaticMarkup(<SamplePage title={title} />)}`;
}

/** A plain page of the firm outside the app: its name as the header, then `children`. */
function PlainPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} · ${firm.displayName}`}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <style>{SAMPLE_CSS}</style>
      </head>
      <body>
        <header>
          <a href="/clearing">{firm.displayName}</a>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}

const Contact = () => (
  <>
    <a href={`mailto:${firm.supportEmail}`}>{firm.supportEmail}</a>
    {` · ${firm.supportPhone}`}
  </>
);

function SamplePage({ title }: { title: string }) {
  return (
    <PlainPage title={`${title} (sample)`}>
      <p className="sample" role="note">
        {SAMPLE_NOTICE}
      </p>
      <h1>{title}</h1>
      <p>
        {`This page stands in for ${firm.displayName}'s ${title} page, which lives outside the clearing member portal.`}
      </p>
      <p>
        <a href="/clearing">Back to the clearing portal</a>
        {' · Questions: '}
        <Contact />
      </p>
    </PlainPage>
  );
}

const NOT_FOUND_TITLE = 'Page not found';

/**
 * What a browser gets for an address outside the app that nothing answers (issue 38 §4): a page
 * saying so, with the way into the portal, instead of the API's JSON. Sent with 404.
 */
export function notFoundPage(): string {
  return `<!doctype html>\n${renderToStaticMarkup(
    <PlainPage title={NOT_FOUND_TITLE}>
      <h1>{NOT_FOUND_TITLE}</h1>
      <p>There is no page at this address. The link may be mistyped, or the page may have moved.</p>
      <p>
        <a href="/clearing/home">Go to the clearing portal</a>
        {' · Questions: '}
        <Contact />
      </p>
    </PlainPage>,
  )}`;
}
