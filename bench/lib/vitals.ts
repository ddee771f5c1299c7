/**
 * Page figures of issue 19 §10: for sign-in, both registrations, an approved customer's home and
 * the disclosures, the layout shift while loading and after a change, and the largest contentful
 * paint, measured in Chromium with the Layout Instability and Largest Contentful Paint APIs
 * against the real portal (a fresh data folder, the production build). Goal: CLS < 0.05.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_SIGN_INS } from '../../src/server/seed/demoSignIns';
import { startPortal } from './load';
import { stopServer } from './server';
import type { Row } from './util';

interface PageVitals {
  page: string;
  loadShift: number;
  changeShift: number | undefined;
  lcp: number;
}

const OBSERVE = () => {
  const w = window as unknown as {
    vitals: { shifts: { value: number; input: boolean }[]; lcp: number };
  };
  w.vitals = { shifts: [], lcp: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as unknown as {
      value: number;
      hadRecentInput: boolean;
    }[]) {
      w.vitals.shifts.push({ value: entry.value, input: entry.hadRecentInput });
    }
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.vitals.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
};

type Vitals = { shifts: { value: number; input: boolean }[]; lcp: number };
const read = (page: Page) => page.evaluate(() => (window as unknown as { vitals: Vitals }).vitals);
const sum = (shifts: Vitals['shifts']) =>
  shifts.filter((s) => !s.input).reduce((total, s) => total + s.value, 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Loads `path` in a fresh page of `context`; after 3 s, optionally makes a change. */
async function measure(
  context: BrowserContext,
  name: string,
  path: string,
  ready: string,
  change?: (page: Page) => Promise<void>,
): Promise<PageVitals> {
  const page = await context.newPage();
  await page.addInitScript(OBSERVE);
  await page.goto(path);
  await page.locator(ready).first().waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await sleep(3000);
  const loaded = await read(page);
  let changeShift: number | undefined;
  if (change) {
    const before = loaded.shifts.length;
    await change(page);
    await sleep(1500);
    changeShift = sum((await read(page)).shifts.slice(before));
  }
  await page.close();
  return { page: name, loadShift: sum(loaded.shifts), changeShift, lcp: loaded.lcp };
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/clearing/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** A new user, verified through the dev outbox and signed in (registration not yet started). */
export async function newApplicant(page: Page): Promise<void> {
  const email = `vitals.${Date.now()}@example.com`;
  await page.goto('/clearing/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await page.getByText('Verify your email').waitFor();
  let link: string | undefined;
  for (let i = 0; i < 50 && !link; i++) {
    await sleep(200);
    const outbox = (await (await page.request.get('/dev/outbox')).json()) as {
      to: string;
      links: string[];
    }[];
    link = outbox
      .filter((m) => m.to === email)
      .flatMap((m) => m.links)
      .find((l) => l.includes('verify-email'));
  }
  if (!link) throw new Error('no verification email');
  await page.goto(link);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Str0ng!Pass');
  await page.getByLabel('Confirm Password').fill('Str0ng!Pass');
  await page.getByRole('button', { name: /set password|submit|save/i }).click();
  await page.waitForURL(/signin/);
  await signIn(page, email, 'Str0ng!Pass');
  await page.waitForURL(/registration$/);
}

/** An empty answer left, then another given: messages and the error summary come and go. */
async function touchFirstName(page: Page) {
  await page.locator('#root_firstName').focus();
  await page.locator('#root_lastName').focus();
  await page.locator('#root_firstName').fill('Jo');
  await page.locator('#root_lastName').focus();
}

export async function pageVitals(options: {
  projectRoot: string;
  tempDir: string;
  webDir: string;
  browser: Browser;
  log: (line: string) => void;
}): Promise<PageVitals[]> {
  // A database of its own: the load part's sign-in flood has used up this address's limits there.
  const dataRoot = fs.mkdtempSync(path.join(options.tempDir, 'vitals-'));
  // The embedded PostgreSQL runs as `postgres` when we are root: it must pass through.
  fs.chmodSync(dataRoot, 0o755);
  const { port, child } = await startPortal(options.projectRoot, dataRoot, options.webDir);
  try {
    const base = `http://127.0.0.1:${port}`;
    const out: PageVitals[] = [];
    const visitor = await options.browser.newContext({
      baseURL: base,
      viewport: { width: 1280, height: 900 },
    });
    out.push(await measure(visitor, 'sign-in', '/clearing/signin', 'input'));
    out.push(await measure(visitor, 'disclosures', '/clearing/regulation/disclosures', 'h1'));
    await visitor.close();

    const applicant = await options.browser.newContext({
      baseURL: base,
      viewport: { width: 1280, height: 900 },
    });
    await newApplicant(await applicant.newPage());
    for (const form of ['individual', 'business']) {
      out.push(
        await measure(
          applicant,
          `${form} registration`,
          `/clearing/registration/${form}`,
          '#root_firstName',
          touchFirstName,
        ),
      );
    }
    await applicant.close();

    const customer = await options.browser.newContext({
      baseURL: base,
      viewport: { width: 1280, height: 900 },
    });
    const approved = DEMO_SIGN_INS[0];
    const page = await customer.newPage();
    await signIn(page, approved.email, approved.password);
    await page.waitForURL(/home$/);
    out.push(await measure(customer, 'home (approved, statement)', '/clearing/home', 'h2'));
    await customer.close();
    for (const each of out) {
      options.log(
        `${each.page}: CLS on load ${each.loadShift.toFixed(3)}` +
          (each.changeShift === undefined
            ? ''
            : `, after a change ${each.changeShift.toFixed(3)}`) +
          `, LCP ${Math.round(each.lcp)} ms`,
      );
    }
    return out;
  } finally {
    await stopServer(child);
  }
}

export function vitalsRows(vitals: PageVitals[]): Row[] {
  return vitals.flatMap((each) => [
    {
      figure: `${each.page}: layout shift while loading (CLS)`,
      value: each.loadShift.toFixed(3),
      baseline: '-',
      ratio: '-',
      goal: '< 0.05',
      met: each.loadShift < 0.05,
    },
    ...(each.changeShift === undefined
      ? []
      : [
          {
            figure: `${each.page}: layout shift after a change`,
            value: each.changeShift.toFixed(3),
            baseline: '-',
            ratio: '-',
            goal: '< 0.05',
            met: each.changeShift < 0.05,
          },
        ]),
    {
      figure: `${each.page}: largest contentful paint`,
      value: `${Math.round(each.lcp)} ms`,
      baseline: '-',
      ratio: '-',
      goal: '-',
      met: null,
    },
  ]);
}
