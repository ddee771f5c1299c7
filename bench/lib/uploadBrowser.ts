/**
 * Issue 17: "a 10 MB upload with progress against a plain POST of the same bytes", as the
 * applicant's browser does it. Against the real portal (production build, its own data folder),
 * a signed-in Chromium page of the individual registration is given a 9.8 MB PDF W-2 through the
 * question's file input: the form uploads it at once with its progress bar (XMLHttpRequest, the
 * upload's progress events). The baseline is the same bytes to the same route as a plain POST
 * (`fetch` of the same multipart form, no progress), from the same page. Both are timed by the
 * browser's own Resource Timing (request start to the answer's last byte); runs interleaved,
 * medians compared.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { pdfOfAbout } from './applications';
import { startPortal } from './load';
import { stopServer } from './server';
import { MB, ms, percentile, ratio, sleep, type Row } from './util';
import { newApplicant } from './vitals';

const RUNS = Number(process.env.UPLOAD_RUNS ?? 7);
const FILES_PATH = '/exchange/api/web/applications/individual/files';

interface UploadFigures {
  bytes: number;
  withProgressMs: number[];
  plainMs: number[];
  /** Progress events the page saw across the uploads with progress. */
  progressEvents: number;
}

/** The durations (ms) of the page's requests to the files route made by `initiator`. */
const durationsScript = (initiator: string) => `(() =>
  performance
    .getEntriesByType('resource')
    .filter((e) => e.name.endsWith(${JSON.stringify(FILES_PATH)}) && e.initiatorType === ${JSON.stringify(initiator)})
    .map((e) => e.responseEnd - e.startTime))()`;

export async function uploadFigures(options: {
  projectRoot: string;
  tempDir: string;
  webDir: string;
  browser: Browser;
  log: (line: string) => void;
}): Promise<UploadFigures> {
  const dataRoot = fs.mkdtempSync(path.join(options.tempDir, 'upload-'));
  fs.chmodSync(dataRoot, 0o755);
  const { port, child } = await startPortal(options.projectRoot, dataRoot, options.webDir);
  const pdf = await pdfOfAbout(9.5 * 1024 * 1024);
  const context = await options.browser.newContext({
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 900 },
  });
  try {
    const page = await context.newPage();
    await newApplicant(page);
    // The same bytes for the plain POST, fetched by the page from a route Playwright answers.
    await context.route('**/bench-w2.pdf', (route) =>
      route.fulfill({ body: pdf, contentType: 'application/pdf' }),
    );
    await page.goto('/clearing/registration/individual');
    const input = page.locator('#root_irsFormW2');
    await input.waitFor({ state: 'attached' });
    await page.evaluate(() => {
      // Counts the upload's progress events (the widget's bar follows them).
      const open = XMLHttpRequest.prototype.open;
      const w = window as unknown as { progressEvents: number };
      w.progressEvents = 0;
      XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, ...args: unknown[]) {
        this.upload.addEventListener('progress', () => (w.progressEvents += 1));
        return (open as (...a: unknown[]) => void).apply(this, args);
      };
    });
    const plainPost = `(async () => {
      const blob = await (await fetch('/bench-w2.pdf')).blob();
      const csrf = decodeURIComponent((document.cookie.match(/(?:^|; )csrf_token=([^;]*)/) || [])[1] || '');
      const body = new FormData();
      body.append('pointer', '/irsFormW2');
      body.append('file', blob, 'bench-w2.pdf');
      const response = await fetch(${JSON.stringify(FILES_PATH)}, {
        method: 'POST', body, credentials: 'include',
        headers: { accept: 'application/json', 'x-csrf-token': csrf },
      });
      await response.text();
      return response.status;
    })()`;
    const withProgress = async (run: number) => {
      const before = ((await page.evaluate(durationsScript('xmlhttprequest'))) as number[]).length;
      await input.setInputFiles({
        name: `bench-w2-${run}.pdf`,
        mimeType: 'application/pdf',
        buffer: pdf,
      });
      // Polled from here: the portal's CSP refuses the string a waitForFunction evaluates.
      for (let waited = 0; ; waited += 50) {
        const now = (await page.evaluate(durationsScript('xmlhttprequest'))) as number[];
        if (now.length > before) break;
        if (waited > 60_000) throw new Error('the upload with progress never ended');
        await sleep(50);
      }
      // Held: the widget names the file, no bar left.
      await page.getByText(`bench-w2-${run}.pdf`).first().waitFor();
      await page.getByRole('progressbar').waitFor({ state: 'detached' });
    };
    const plain = async () => {
      const status = (await page.evaluate(plainPost)) as number;
      if (status !== 200) throw new Error(`the plain POST answered ${status}`);
    };
    // One of each to warm up (the route's code, the connection), not counted.
    await withProgress(0);
    await plain();
    for (let run = 1; run <= RUNS; run++) {
      await withProgress(run);
      await plain();
    }
    const all = (initiator: string) =>
      page.evaluate(durationsScript(initiator)) as Promise<number[]>;
    const withProgressMs = (await all('xmlhttprequest')).slice(1);
    const plainMs = (await all('fetch')).slice(1);
    const progressEvents = (await page.evaluate(
      () => (window as unknown as { progressEvents: number }).progressEvents,
    )) as number;
    options.log(
      `upload in Chromium (${MB(pdf.length)}): with progress ${withProgressMs.map(Math.round).join(', ')} ms; ` +
        `plain POST ${plainMs.map(Math.round).join(', ')} ms; ${progressEvents} progress events`,
    );
    return { bytes: pdf.length, withProgressMs, plainMs, progressEvents };
  } finally {
    await context.close();
    await stopServer(child);
  }
}

export function uploadRows(figures: UploadFigures): Row[] {
  const upload = percentile(figures.withProgressMs, 50);
  const plain = percentile(figures.plainMs, 50);
  return [
    {
      figure: `upload of a ${MB(figures.bytes)} PDF from Chromium, with progress (the W-2 field), median`,
      value: ms(upload),
      baseline: `plain POST of the same bytes ${ms(plain)}`,
      ratio: ratio(upload, plain),
      goal: '≤ 1.10',
      met: upload <= plain * 1.1 && figures.progressEvents > 0,
    },
  ];
}
