/**
 * Browser figures: the bench pages (bench/pages) built by Vite in production mode into a temp
 * folder, served on loopback, driven by playwright-core in Debian's headless Chromium.
 *
 * Keystrokes: each page is prefilled with the example answers, the ~10 MB of files are attached
 * through the file inputs (as a user would), then 26 keys are typed 150 ms apart at the end of
 * one text field; the in-page probe (pages/probe.ts) records keydown → next paint.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { build } from 'vite';
import type { BenchFile } from './files';
import { serveStatic, sleep } from './util';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

export const KEYSTROKE_PAGES = ['ours', 'b1', 'b2', 'b2simple'] as const;
export type KeystrokePage = (typeof KEYSTROKE_PAGES)[number];

/**
 * Where each keystroke page is: b2simple is B2 as first written (country and region as text
 * inputs, yes/no questions as checkboxes).
 */
const PAGE_PATHS: Record<KeystrokePage, string> = {
  ours: 'ours.html',
  b1: 'b1.html',
  b2: 'b2.html',
  b2simple: 'b2.html?simple=1',
};

export interface KeystrokeResult {
  samples: number[];
  /** Event Timing durations (ms) of the typed keys; keys under the 16 ms threshold are absent. */
  eventDurations: number[];
  typed: number;
  longTasks: number[];
  /** Bytes of data URLs held in form data (B1). */
  dataUrlBytes: number;
}

interface EngineResult {
  precompiled: {
    firstValid: number;
    firstBlank: number;
    check: { valid: boolean; blankErrors: number };
    repeatedValid: number;
    repeatedBlank: number;
    rawValid: number;
    rawBlank: number;
    plainValid: number;
    plainBlank: number;
    payload: {
      fileBytes: number;
      first: number;
      times: number[];
      blobParts: number;
      blobBytes: number;
      textChars: number;
      base64Texts: number;
      baselineTimes: number[];
      jsonChars: number;
    };
  };
  lazy: { first: number; repeatedValid: number; repeatedBlank: number };
  cold: { firstValid: number };
  breakdown: { firstRaw: number; firstPrepare: number; firstValidate: number };
}

interface BrowserOptions {
  tempDir: string;
  files: BenchFile[];
  runs: number;
  keys: string;
  gapMs: number;
  /** The text field typed into (its input id). */
  fieldId: string;
  log: (line: string) => void;
  /** The keystroke pages to run (default all of KEYSTROKE_PAGES). */
  pages?: readonly KeystrokePage[];
  /** Whether to take the engine page's figures after the keystrokes (default true). */
  engine?: boolean;
}

export async function buildBenchPages(outDir: string): Promise<void> {
  await build({
    configFile: path.join(benchDir, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'error',
    build: { outDir, emptyOutDir: true },
  });
}

async function waitReady(page: Page) {
  await page.waitForFunction(() => window.bench?.ready === true, undefined, { timeout: 30_000 });
}

async function typeRun(
  page: Page,
  name: KeystrokePage,
  options: BrowserOptions,
): Promise<KeystrokeResult> {
  await waitReady(page);
  const field = page.locator(`#${options.fieldId}`);
  await field.waitFor({ state: 'visible', timeout: 30_000 });
  for (const file of options.files) {
    await page.locator(`input[type=file]#root_${file.pointer.slice(1)}`).setInputFiles(file.path);
  }
  // Wait until the files are taken in: listed by name (OURS, B1), read into data URLs (B1).
  if (name !== 'b2' && name !== 'b2simple') {
    for (const file of options.files) {
      await page.getByText(file.name).first().waitFor({ timeout: 30_000 });
    }
  }
  if (name === 'b1') {
    const total = options.files.reduce((sum, file) => sum + file.size, 0);
    await page.waitForFunction(
      (bytes) => Number(window.bench.info.dataUrlBytes ?? 0) >= bytes,
      total,
      { timeout: 30_000 },
    );
  }
  await field.scrollIntoViewIfNeeded();
  await field.click();
  await page.keyboard.press('End');
  await sleep(600);
  await page.evaluate(() => window.bench.reset());
  for (const key of options.keys) {
    await page.keyboard.press(key);
    await sleep(options.gapMs);
  }
  await sleep(600);
  const value = await field.inputValue();
  if (!value.endsWith(options.keys)) {
    throw new Error(`${name}: the field holds "${value}", not the typed keys`);
  }
  return page.evaluate((typed) => {
    const probe = window.bench;
    return {
      samples: probe.samples,
      eventDurations: [...probe.interactions.values()],
      typed,
      longTasks: probe.longTasks,
      dataUrlBytes: Number(probe.info.dataUrlBytes ?? 0),
    };
  }, options.keys.length);
}

/** Keystroke runs (pages interleaved run by run) and the engine page's figures. */
export async function browserFigures(
  browser: Browser,
  pagesDir: string,
  options: BrowserOptions,
): Promise<{ keystrokes: Record<KeystrokePage, KeystrokeResult[]>; engine: EngineResult }> {
  const server = await serveStatic(pagesDir);
  try {
    const keystrokes = { ours: [], b1: [], b2: [], b2simple: [] } as Record<
      KeystrokePage,
      KeystrokeResult[]
    >;
    for (let run = 0; run < options.runs; run++) {
      for (const name of options.pages ?? KEYSTROKE_PAGES) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        try {
          const page = await context.newPage();
          await page.goto(`${server.url}/${PAGE_PATHS[name]}`);
          const result = await typeRun(page, name, options);
          keystrokes[name].push(result);
          options.log(
            `  run ${run + 1} ${name.padEnd(4)}: ${result.samples.length} samples, ` +
              `max ${Math.max(...result.samples).toFixed(1)} ms`,
          );
        } finally {
          await context.close();
        }
      }
    }

    const engine = {} as EngineResult;
    if (options.engine === false) return { keystrokes, engine };
    for (const mode of ['precompiled', 'lazy', 'cold', 'breakdown'] as const) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${server.url}/engine.html?mode=${mode}`);
        await waitReady(page);
        const info = await page.evaluate(() => window.bench.info);
        if (info.error) throw new Error(`engine page (${mode}): ${String(info.error)}`);
        Object.assign(engine, { [mode]: info.engine });
      } finally {
        await context.close();
      }
    }
    return { keystrokes, engine };
  } finally {
    await server.close();
  }
}

export const BUSINESS_PAGES = ['biz-ours', 'biz-b1', 'biz-b2'] as const;
type BusinessPage = (typeof BUSINESS_PAGES)[number];

interface BusinessFigures {
  keystrokes: Record<BusinessPage, KeystrokeResult[]>;
  /** Click on a row's Edit button → first paint with the dialog in the page (ms), OURS. */
  dialogOpen: number[];
  /** Click → first paint with the dialog's form drawn (its inputs in the page). */
  dialogFormReady: number[];
  /** The baseline: a plain MUI Dialog with one text field, opened on the same page. */
  plainDialogOpen: number[];
  plainDialogReady: number[];
}

/** Types the keys at the end of one text field of a page already loaded; no files. */
async function typeKeys(page: Page, fieldId: string, keys: string, gapMs: number) {
  await waitReady(page);
  const field = page.locator(`#${fieldId}`);
  await field.waitFor({ state: 'visible', timeout: 30_000 });
  await field.scrollIntoViewIfNeeded();
  await field.click();
  await page.keyboard.press('End');
  await sleep(600);
  await page.evaluate(() => window.bench.reset());
  for (const key of keys) {
    await page.keyboard.press(key);
    await sleep(gapMs);
  }
  await sleep(600);
  const value = await field.inputValue();
  if (!value.endsWith(keys)) throw new Error(`the field holds "${value}", not the typed keys`);
  return page.evaluate((typed) => {
    const probe = window.bench;
    return {
      samples: probe.samples,
      eventDurations: [...probe.interactions.values()],
      typed,
      longTasks: probe.longTasks,
      dataUrlBytes: 0,
    };
  }, keys.length);
}

/** How long the bench holds the mouse button down on a click, as a person does. */
const PRESS_MS = 80;

/**
 * Opens the affiliated-person dialog from rows spread over the list, by a real click on the
 * row's Edit button; the page's probe (pages/biz-ours.tsx) records click → first paint with the
 * dialog. Escape closes it between samples.
 */
async function dialogOpenRun(
  page: Page,
  rows: number[],
): Promise<{ open: number[]; formReady: number[]; plainOpen: number[]; plainReady: number[] }> {
  await waitReady(page);
  await page.evaluate(() => {
    window.bench.info.dialogOpen = [];
    window.bench.info.dialogFormReady = [];
    window.bench.info.plainDialogOpen = [];
    window.bench.info.plainDialogReady = [];
  });
  const openAndClose = async (button: Locator, input: string) => {
    await button.scrollIntoViewIfNeeded();
    await sleep(300);
    // Pressed as a person presses (~80 ms between down and up): the click event comes at the
    // release, and the button's own answer to the press (its ripple) is drawn while it is held.
    // Sent back to back, the press's work would sit inside the click's measured time.
    await button.click({ delay: PRESS_MS });
    await page.locator(input).first().waitFor({ timeout: 10_000 });
    await sleep(300);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 10_000 });
  };
  // Each person's dialog, then the plain one from the same scroll position: interleaved.
  for (const row of rows) {
    await openAndClose(page.locator(`#root_affiliatedPersons_${row}`), '[role=dialog] form input');
    await openAndClose(page.locator('#bench-plain-dialog'), '[role=dialog] input');
  }
  await sleep(200);
  return page.evaluate(() => ({
    open: window.bench.info.dialogOpen as number[],
    formReady: window.bench.info.dialogFormReady as number[],
    plainOpen: window.bench.info.plainDialogOpen as number[],
    plainReady: window.bench.info.plainDialogReady as number[],
  }));
}

/** Business Details: keystrokes on the three pages (interleaved by run), then dialog opens. */
export async function businessFigures(
  browser: Browser,
  pagesDir: string,
  options: Pick<BrowserOptions, 'runs' | 'keys' | 'gapMs' | 'log'> & { fieldId: string },
): Promise<BusinessFigures> {
  const server = await serveStatic(pagesDir);
  try {
    const keystrokes = { 'biz-ours': [], 'biz-b1': [], 'biz-b2': [] } as Record<
      BusinessPage,
      KeystrokeResult[]
    >;
    const dialogOpen: number[] = [];
    const dialogFormReady: number[] = [];
    const plainDialogOpen: number[] = [];
    const plainDialogReady: number[] = [];
    for (let run = 0; run < options.runs; run++) {
      for (const name of BUSINESS_PAGES) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        try {
          const page = await context.newPage();
          await page.goto(`${server.url}/${name}.html`);
          const result = await typeKeys(page, options.fieldId, options.keys, options.gapMs);
          keystrokes[name].push(result);
          options.log(
            `  run ${run + 1} ${name.padEnd(8)}: ${result.samples.length} samples, ` +
              `max ${Math.max(...result.samples).toFixed(1)} ms`,
          );
          if (name === 'biz-ours') {
            const opens = await dialogOpenRun(page, [0, 12, 24, 36, 49]);
            dialogOpen.push(...opens.open);
            dialogFormReady.push(...opens.formReady);
            plainDialogOpen.push(...opens.plainOpen);
            plainDialogReady.push(...opens.plainReady);
            options.log(
              `  run ${run + 1} dialog open: ${opens.open.map((t) => t.toFixed(1)).join(' ')} ms; ` +
                `form drawn: ${opens.formReady.map((t) => t.toFixed(1)).join(' ')} ms; ` +
                `plain dialog: ${opens.plainOpen.map((t) => t.toFixed(1)).join(' ')} ms`,
            );
          }
        } finally {
          await context.close();
        }
      }
    }
    return { keystrokes, dialogOpen, dialogFormReady, plainDialogOpen, plainDialogReady };
  } finally {
    await server.close();
  }
}
