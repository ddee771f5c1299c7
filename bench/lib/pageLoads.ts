/**
 * Issue 26 §1 "Loading is slow under load": pages opened on a fresh page of a signed-in browser,
 * navigation → the next paint once the page is complete (its list, its button, its form), beside
 * the plain home page (a customer awaiting review: its banner and timeline) as the baseline,
 * pages interleaved run by run (`npm run bench -- loading`). The real portal (production build,
 * its own data folder); a business registration of 50 affiliated persons submitted through the
 * API, then staff ask for two changes through the admin API:
 * - the applicant's home with changes requested: the requested list and "Make the changes";
 * - the changes page: the form in change mode, its first requested question shown with the answer;
 * - the staff console's detail of that registration: its last affiliated person drawn.
 * Goal of each: at most 1.5 × the baseline (issue 26 also asked for under 1 s: printed beside the
 * value, not judged, as issue 29 asks of every time that depends on the machine).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import sharp from 'sharp';
import { signedDocuments, toPayload } from '../../src/shared/forms/payload/payload';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { startPortal } from './load';
import { businessAnswers, timeToInteractive, type Awaited } from './resume';
import { stopServer } from './server';
import { ms, percentile, personName, ratioRow, type Row } from './util';
import { benchForm } from './validation';
import { newApplicant, signIn } from './vitals';

const RUNS = Number(process.env.LOADING_RUNS ?? 5);
const PERSONS = 50;
const PENDING = { email: 'pending@demo.northstar.example', password: 'Demo-Pass-2026!' };
const STAFF = { email: 'staff@demo.northstar.example', password: 'Demo-Staff-2026!' };

interface PageLoadFigures {
  /** Medians of RUNS runs each (ms). */
  baseline: number[];
  homeWithChanges: number[];
  changesPage: number[];
  consoleDetail: number[];
}

const csrfOf = async (context: BrowserContext) =>
  decodeURIComponent(
    (await context.cookies()).find((cookie) => cookie.name === 'csrf_token')?.value ?? '',
  );

/** The business example with 50 persons and every file answer given real bytes, as the browser sends it. */
async function businessSubmission(projectRoot: string, email: string) {
  const form = benchForm('business');
  const answers = businessAnswers(projectRoot, PERSONS) as Answers;
  answers.email = email;
  const pdf = fs.readFileSync(path.join(projectRoot, 'assets/pdfs/terms-of-service.pdf'));
  const png = await sharp({
    create: { width: 32, height: 20, channels: 3, background: '#8899aa' },
  })
    .png()
    .toBuffer();
  const files: Record<string, Blob> = {};
  for (const [key, value] of Object.entries(answers)) {
    if (!value || typeof value !== 'object' || !('type' in value) || !('size' in value)) continue;
    const image = String(value.type).startsWith('image/');
    const bytes = image ? png : pdf;
    answers[key] = {
      name: image ? `${key}.png` : `${key}.pdf`,
      type: image ? 'image/png' : 'application/pdf',
      size: bytes.length,
    };
    files[`/${key}`] = new Blob([new Uint8Array(bytes)], {
      type: image ? 'image/png' : 'application/pdf',
    });
  }
  const documents = Object.fromEntries(
    signedDocuments(form).map((document) => [
      document.url,
      new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }),
    ]),
  );
  const request = new Request('http://localhost/', {
    method: 'POST',
    body: toPayload(form, answers, files, documents),
  });
  return {
    data: Buffer.from(await request.arrayBuffer()),
    type: request.headers.get('content-type')!,
  };
}

export async function pageLoadFigures(options: {
  projectRoot: string;
  tempDir: string;
  webDir: string;
  browser: Browser;
  log: (line: string) => void;
}): Promise<PageLoadFigures> {
  const dataRoot = fs.mkdtempSync(path.join(options.tempDir, 'loading-'));
  fs.chmodSync(dataRoot, 0o755);
  const { port, child } = await startPortal(options.projectRoot, dataRoot, options.webDir);
  try {
    const base = `http://127.0.0.1:${port}`;
    const context = () =>
      options.browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });

    // The applicant: signed up through the pages, the business registration through the API.
    const applicant = await context();
    const setup = await applicant.newPage();
    await newApplicant(setup);
    const user = (await (await setup.request.get('/exchange/api/web/user')).json()) as {
      email: string;
    };
    const csrf = await csrfOf(applicant);
    const consent = (await (await setup.request.get('/exchange/api/web/esign-consent')).json()) as {
      version: string;
    };
    await setup.request.post('/exchange/api/web/esign-consent', {
      headers: { 'x-csrf-token': csrf },
      data: { version: consent.version },
    });
    const body = await businessSubmission(options.projectRoot, user.email);
    const submitted = await setup.request.post('/exchange/api/web/registration/business', {
      headers: { 'x-csrf-token': csrf, 'content-type': body.type },
      data: body.data,
    });
    if (submitted.status() !== 201) {
      throw new Error(`submitting: ${submitted.status()} ${await submitted.text()}`);
    }
    const { registrationId } = (await submitted.json()) as { registrationId: string };
    await setup.close();

    // Staff ask for two changes: a question of Business Details and one of a person.
    const staff = await context();
    const staffPage = await staff.newPage();
    await signIn(staffPage, STAFF.email, STAFF.password);
    await staffPage.waitForURL(/admin/);
    const asked = await staffPage.request.post(
      '/exchange/api/admin/onboarding/kyc-changes-request',
      {
        headers: { 'x-csrf-token': await csrfOf(staff) },
        data: {
          registrationId,
          note: 'Please look again.',
          fields: [
            { path: '/bizName', note: 'Use the registered name.' },
            { path: '/affiliatedPersons/0/lastName', note: 'As on the passport.' },
          ],
        },
      },
    );
    if (!asked.ok()) throw new Error(`asking for changes: ${asked.status()} ${await asked.text()}`);
    await staffPage.close();

    const pending = await context();
    const pendingPage = await pending.newPage();
    await signIn(pendingPage, PENDING.email, PENDING.password);
    await pendingPage.waitForURL(/home/);
    await pendingPage.close();

    const bizNamePrompt = benchForm('business').schema.properties!.bizName!.title!;
    const pages: Array<[keyof PageLoadFigures, BrowserContext, Awaited, string]> = [
      ['baseline', pending, { marker: 'Your application has been received' }, '/clearing/home'],
      [
        'homeWithChanges',
        applicant,
        { input: 'a[href$="/registration/business/changes"]', marker: bizNamePrompt },
        '/clearing/home',
      ],
      [
        'changesPage',
        applicant,
        { input: '#root_bizName', filled: true },
        '/clearing/registration/business/changes',
      ],
      [
        'consoleDetail',
        staff,
        { marker: personName(PERSONS - 1) },
        `/clearing/admin/registrations/${registrationId}`,
      ],
    ];
    const figures: PageLoadFigures = {
      baseline: [],
      homeWithChanges: [],
      changesPage: [],
      consoleDetail: [],
    };
    for (let run = 0; run < RUNS; run++) {
      for (const [name, browserContext, awaited, pathname] of pages) {
        figures[name].push(await timeToInteractive(browserContext, awaited, pathname));
      }
      options.log(
        `  run ${run + 1}: ` +
          pages.map(([name]) => `${name} ${Math.round(figures[name].at(-1)!)} ms`).join(', '),
      );
    }
    for (const browserContext of [applicant, staff, pending]) await browserContext.close();
    return figures;
  } finally {
    await stopServer(child);
  }
}

export function pageLoadRows(figures: PageLoadFigures): Row[] {
  const baseline = percentile(figures.baseline, 50);
  const row = (figure: string, samples: number[]): Row => {
    const value = percentile(samples, 50);
    return ratioRow({
      figure: `${figure}: interactive, median of ${samples.length}`,
      value,
      baseline,
      show: (n) => `${Math.round(n)} ms`,
      baselineIs: 'plain home (awaiting review)',
      goal: { atMost: 1.5 },
      // Issue 26's "under 1 s", printed; judged by the ratio alone (issue 29): the plain home
      // page itself took 1.0-1.1 s on a slower machine of the same kind.
      valueNote: value < 1000 ? 'under 1 s' : 'over 1 s',
    });
  };
  return [
    row('home with changes requested (the list and "Make the changes")', figures.homeWithChanges),
    row('changes page (business, the requested question shown)', figures.changesPage),
    row(`staff console: detail of a ${PERSONS}-person business`, figures.consoleDetail),
    {
      figure: 'plain home page (awaiting review): interactive, spread',
      value: figures.baseline.map((n) => ms(n)).join(' '),
      baseline: '-',
      ratio: '-',
      goal: '-',
      met: null,
    },
  ];
}
