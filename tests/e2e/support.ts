import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { DEMO_SIGN_INS } from '../../src/server/seed/demoSignIns';
import { PORTAL_START_TIMEOUT_MS, startPortal, type Portal } from './portalServer';

export { expect };

/**
 * Playwright's `test` against the worker's own portal, with each test's pages coming from an
 * address of their own.
 *
 * `portal`: each worker starts the run's build on a port, data folder and embedded PostgreSQL of
 * its own (portalServer.ts) and stops it when the worker ends; `baseURL` points at it, so every
 * page, `request` and `browser.newContext()` of the test reaches that server. Tests of one file
 * share it (and its demo accounts and outbox) one after another; other files may run on the other
 * worker's server at the same time.
 *
 * `page`: the portal trusts 127.0.0.1 as its reverse proxy (`TRUST_PROXY`), and every page sends
 * `X-Forwarded-For: 10.x.y.z`. The per-IP limits (five sign-ups a minute) then count each test as
 * its own visitor, as real visitors are, instead of the whole suite as one. Behind a proxy the
 * portal answers `/dev/outbox` to no one: the emails are read from its outbox file (readOutbox).
 */
/** The address each test's `page` comes from, for API calls made as that same visitor. */
const visitorAddresses = new WeakMap<Page, string>();

export const test = base.extend<object, { portal: Portal }>({
  portal: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern.
    async ({}, use, workerInfo) => {
      const portal = await startPortal(workerInfo.workerIndex);
      workerOutboxFile = portal.outboxFile;
      try {
        await use(portal);
      } finally {
        await portal.stop();
      }
    },
    { scope: 'worker', timeout: PORTAL_START_TIMEOUT_MS + 30_000 },
  ],
  baseURL: async ({ portal }, use) => {
    await use(portal.url);
  },
  page: async ({ page }, use, testInfo) => {
    const n = testInfo.workerIndex * 10_000 + testInfo.testId.length + Date.now();
    const address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': address });
    visitorAddresses.set(page, address);
    await use(page);
  },
});

export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/** The outbox file of this worker's portal (one portal per worker process). */
let workerOutboxFile: string | undefined;

/** Every email this worker's portal has sent, oldest first (none before the first). */
export function readOutbox(): OutboxMessage[] {
  if (!workerOutboxFile) throw new Error('No portal has started in this worker.');
  try {
    return JSON.parse(fs.readFileSync(workerOutboxFile, 'utf8')) as OutboxMessage[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The newest link in the dev outbox sent to `to` whose path contains `pathPart`. */
export async function linkFromOutbox(to: string, pathPart: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(() => {
      found = readOutbox()
        .filter((message) => message.to.toLowerCase() === to.toLowerCase())
        .flatMap((message) => message.links)
        .filter((link) => link.includes(pathPart))
        .at(-1);
      return found;
    })
    .toBeTruthy();
  const url = new URL(found!);
  return `${url.pathname}${url.search}`;
}

/**
 * Makes a verified account as the sign-up and verify pages do, through their API calls: the
 * sign-up, the emailed link, the password set through it (which also marks this browser as one
 * that has signed in). Those pages are access.spec.ts's subject, which goes through them; for
 * every other test they only make the account it starts from. The calls come from the page's
 * visitor address (its per-IP limits) and leave the page where it was.
 */
export async function signUpAndVerify(page: Page, email: string, password: string): Promise<void> {
  const address = visitorAddresses.get(page);
  const visitor: Record<string, string> = address ? { 'x-forwarded-for': address } : {};
  // The first request of a browser is given its `csrf_token` cookie.
  await page.request.get('/exchange/api/web/auth/signin', { headers: visitor });
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrf_token');
  expect(csrf, 'csrf_token cookie').toBeTruthy();
  const headers = { ...visitor, 'x-csrf-token': csrf!.value };
  const signUp = await page.request.post('/exchange/api/web/auth/signup', {
    headers,
    data: { email, authOrigin: 'Clearing' },
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  const link = new URL(await linkFromOutbox(email, '/clearing/user/verify-email'), 'http://link');
  const verified = await page.request.post('/exchange/api/web/auth/verify-email', {
    headers,
    data: {
      token: link.searchParams.get('access_token'),
      email: link.searchParams.get('email'),
      password,
    },
  });
  expect(verified.status(), await verified.text()).toBe(200);
}

/** Signs in on the sign-in page; where it lands is the caller's to check. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/clearing/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** The demo staff member signed in, in a browser of their own (the applicant's stays as it is). */
export async function signInAsStaff(browser: Browser): Promise<Page> {
  const staff = DEMO_SIGN_INS[2];
  const staffPage = await (await browser.newContext()).newPage();
  await signIn(staffPage, staff.email, staff.password);
  await expect(staffPage).toHaveURL(/\/clearing\/admin/);
  return staffPage;
}

/**
 * Staff open the registration of the applicant signed up as `email`, by the link in its row
 * (other tests register applicants of the same name, so the row is found by email).
 */
export async function openRegistrationAsStaff(
  browser: Browser,
  email: string,
  link: RegExp,
): Promise<Page> {
  const staffPage = await signInAsStaff(browser);
  await staffPage
    .getByRole('row')
    .filter({ hasText: email })
    .getByRole('link', { name: link })
    .click();
  return staffPage;
}

/** A fresh address per test run, so runs never collide. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** Fails on any serious or critical axe-core violation of the current page. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  // Judge the settled page: data loaded and no colour transition half-way (a button fading from
  // its disabled grey would read as low contrast).
  await page.waitForLoadState('networkidle');
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  // axe reads the boxes of questions skipped by `content-visibility: auto` (far off screen) at
  // their placeholder height, so their text seems to sit on the footer (axe-core issue #2768).
  // Judge every question as it is drawn once scrolled to.
  const drawAll = await page.addStyleTag({
    content: '* { content-visibility: visible !important; }',
  });
  const results = await new AxeBuilder({ page }).analyze();
  await drawAll.evaluate((style) => style.parentNode?.removeChild(style));
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  expect(
    serious.map(
      (violation) => `${violation.id}: ${violation.nodes.map((n) => n.target).join(', ')}`,
    ),
  ).toEqual([]);
}

/**
 * Chooses `file` for the file question `input` over a slow uplink (1 MB/s), so the upload on
 * choosing is seen as it goes: its progress bar named after the file shows some of it sent, then
 * goes when the server holds the file. The uplink is fast again afterwards.
 */
export async function uploadShowingProgress(
  page: Page,
  input: string,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const uplink = (uploadThroughput: number) =>
    cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: uploadThroughput === -1 ? 0 : 20,
      downloadThroughput: -1,
      uploadThroughput,
    });
  await uplink(1024 * 1024);
  try {
    await page.locator(input).setInputFiles(file);
    const progress = page.getByRole('progressbar', { name: `Uploading ${file.name}` });
    await expect(progress).toBeVisible();
    await expect
      .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await expect(progress).toHaveCount(0, { timeout: 60_000 });
  } finally {
    await uplink(-1);
    await cdp.detach();
  }
}
