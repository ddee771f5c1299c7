/**
 * The frame of every console page: head, header (who is signed in), the page's title. Pages are
 * React components rendered on the server to static markup, so escaping is React's job; the
 * only script is the console's own, by address (the CSP allows no inline one).
 */
import type { ReactElement, ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { firm } from '../../../shared/config/firm';
import { CONSOLE_BASE, CONSOLE_CSS_PATH, CONSOLE_JS_PATH } from './consoleAssets';

interface ConsolePageProps {
  title: string;
  signedInAs?: string | undefined;
  /** Load the console's script (a registration's page). */
  script?: boolean;
  children: ReactNode;
}

export function ConsolePage({ title, signedInAs, script, children }: ConsolePageProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} · ${firm.displayName} Admin`}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href={CONSOLE_CSS_PATH} />
        {script && <script src={CONSOLE_JS_PATH} defer />}
      </head>
      <body>
        <header className="top">
          <a className="brand" href={signedInAs ? CONSOLE_BASE : '/clearing/home'}>
            {`${firm.displayName} · Clearing Admin`}
          </a>
          {signedInAs && (
            <span className="who">
              {`Signed in as ${signedInAs} · `}
              <a href="/clearing/logout">Logout</a>
            </span>
          )}
        </header>
        <main>
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  );
}

/** A whole page as the server sends it: the doctype, then the page's static markup. */
export function renderConsolePage(page: ReactElement): string {
  return `<!doctype html>\n${renderToStaticMarkup(page)}`;
}
