/**
 * Issue 25's figure: a registration page's first draw for a generated 200-question form, time to
 * interactive, against the individual form's (`npm run bench -- firstdraw`). The form
 * (lib/generatedRegistration.ts) is a registration kind that exists only in a FORMS_DIR folder of
 * the bench, all its questions on one step as the individual form's are. The app is built with
 * that folder (the build reads FORMS_DIR, so the main bench build cannot serve it) and the real
 * portal started with it; one signed-in applicant with no saved application then opens both
 * pages on fresh pages, interleaved run by run. "Interactive" (lib/resume.ts) is the next paint
 * after the first question shows enabled and the step's last question is drawn.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { questionPatterns } from '../../src/shared/forms/walk/answerPlaces';
import { FORM_ID, generatedRegistration, lastPrompt, QUESTIONS } from './generatedRegistration';
import { startPortal } from './load';
import { timeToInteractive } from './resume';
import { stopServer } from './server';
import { percentile, ratioRow, type Row } from './util';
import { benchForm } from './validation';
import { newApplicant } from './vitals';

const RUNS = Number(process.env.FIRSTDRAW_RUNS ?? 5);

/** The individual form's step's last question's prompt (its signature). */
function individualLastPrompt(): string {
  const form = benchForm('individual');
  const ui = form.uiSchema as { 'ui:steps': { sections: { fields: string[] }[] }[] };
  const field = ui['ui:steps'][0]!.sections.at(-1)!.fields.at(-1)!;
  return (form.schema.properties![field] as { title: string }).title;
}

/** Builds the app (production) into `webDir` with `formsDir` as its FORMS_DIR. */
async function buildWithForms(projectRoot: string, formsDir: string, webDir: string) {
  const before = process.env.FORMS_DIR;
  process.env.FORMS_DIR = formsDir;
  try {
    await build({
      configFile: path.join(projectRoot, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'error',
      build: { outDir: webDir, emptyOutDir: true },
    });
  } finally {
    if (before === undefined) delete process.env.FORMS_DIR;
    else process.env.FORMS_DIR = before;
  }
}

interface FirstDrawFigures {
  /** Time to interactive of each run (ms). */
  generated: number[];
  individual: number[];
  /** The questions each form can ask, as the walker counts them. */
  questions: { generated: number; individual: number };
}

export async function firstDrawFigures(options: {
  projectRoot: string;
  tempDir: string;
  browser: Browser;
  log: (line: string) => void;
}): Promise<FirstDrawFigures> {
  const { projectRoot, log } = options;
  const root = fs.mkdtempSync(path.join(options.tempDir, 'firstdraw-'));
  // The embedded PostgreSQL runs as `postgres` when we are root: it must pass through.
  fs.chmodSync(root, 0o755);
  const formsDir = path.join(root, 'forms');
  const folder = path.join(formsDir, FORM_ID);
  fs.mkdirSync(folder, { recursive: true });
  const form = generatedRegistration();
  for (const [kind, content] of Object.entries(form)) {
    fs.writeFileSync(path.join(folder, `${FORM_ID}.${kind}.json`), JSON.stringify(content));
  }
  const webDir = path.join(root, 'web');
  log(`first draw: building the app with the ${QUESTIONS}-question form (FORMS_DIR)`);
  await buildWithForms(projectRoot, formsDir, webDir);
  const { port, child } = await startPortal(projectRoot, root, webDir, { FORMS_DIR: formsDir });
  try {
    const context = await options.browser.newContext({
      baseURL: `http://127.0.0.1:${port}`,
      viewport: { width: 1280, height: 900 },
    });
    await newApplicant(await context.newPage());
    const pages = {
      generated: [`/clearing/registration/${FORM_ID}`, lastPrompt(form)],
      individual: ['/clearing/registration/individual', individualLastPrompt()],
    } as const;
    const questions = {
      generated: QUESTIONS,
      individual: questionPatterns(benchForm('individual').schema).size,
    };
    const figures: FirstDrawFigures = { generated: [], individual: [], questions };
    for (let run = 0; run < RUNS; run++) {
      for (const name of ['generated', 'individual'] as const) {
        const [pathname, marker] = pages[name];
        figures[name].push(
          await timeToInteractive(context, { input: '#root_firstName', marker }, pathname),
        );
      }
      log(
        `  run ${run + 1}: generated ${Math.round(figures.generated.at(-1)!)} ms, ` +
          `individual ${Math.round(figures.individual.at(-1)!)} ms`,
      );
    }
    await context.close();
    return figures;
  } finally {
    await stopServer(child);
  }
}

export function firstDrawRows(figures: FirstDrawFigures): Row[] {
  return [
    ratioRow({
      figure: `registration page, generated ${figures.questions.generated}-question form: first draw, interactive, median`,
      value: percentile(figures.generated, 50),
      baseline: percentile(figures.individual, 50),
      show: (n) => `${Math.round(n)} ms`,
      baselineIs: `the individual form (${figures.questions.individual} questions)`,
      goal: { atMost: 2 },
    }),
  ];
}
