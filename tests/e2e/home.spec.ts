import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { type Browser, type Page } from '@playwright/test';
import { DEMO_SIGN_INS } from '../../src/server/seed/demoSignIns';
import { giveConsentByApi } from './esignConsent';
import {
  expect,
  expectNoSeriousA11yViolations,
  signIn,
  signUpAndVerify,
  test,
  type OutboxMessage,
  readOutbox,
  uniqueEmail,
} from './support';

const PASSWORD = 'Str0ng!Pass';
const [approved, , staff] = DEMO_SIGN_INS;
const PENDING_BANNER =
  "Your application has been received. We'll let you know once it has been reviewed.";
const APPROVED_BANNER = 'Your application has been approved.';

/** The demo approved customer's statement, read as data (no JSON module import in e2e). */
const demoStatement = JSON.parse(fs.readFileSync('src/server/seed/demoStatement.json', 'utf8')) as {
  organizationName: string;
  trades: Array<{ fillId: string; executionId: string }>;
};

/** Signs in and waits to leave the sign-in page. */
async function signedIn(page: Page, email: string, password: string) {
  await signIn(page, email, password);
  await expect(page).not.toHaveURL(/\/signin/);
}

/**
 * Submits a valid individual registration through the API, as the signed-in page's browser
 * would (session cookie, CSRF header echoing the cookie). The multipart body comes from the form
 * engine run by tsx (tools/individualRegistration.ts).
 */
async function registerIndividual(page: Page, email: string) {
  const { stdout } = await promisify(execFile)('node_modules/.bin/tsx', [
    'tests/e2e/tools/individualRegistration.ts',
    email,
  ]);
  const { contentType, body } = JSON.parse(stdout) as { contentType: string; body: string };
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrf_token');
  expect(csrf, 'csrf_token cookie').toBeTruthy();
  await giveConsentByApi(page.request, page.context());
  const response = await page.request.post('/exchange/api/web/registration/individual', {
    headers: { 'content-type': contentType, 'x-csrf-token': csrf!.value },
    data: Buffer.from(body, 'base64'),
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** Opens the console page of `email`'s registration as staff, in a context of its own. */
async function inConsole(browser: Browser, email: string, work: (page: Page) => Promise<void>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await signedIn(page, staff.email, staff.password);
    await expect(page).toHaveURL(/\/clearing\/admin/);
    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByRole('link', { name: /^Review/ }).click();
    await expect(page.getByRole('heading', { name: 'Decision' })).toBeVisible();
    await work(page);
  } finally {
    await context.close();
  }
}

async function approveInConsole(browser: Browser, email: string) {
  await inConsole(browser, email, async (page) => {
    // Approve asks first, naming the applicant.
    await page.getByRole('button', { name: 'Approve…' }).click();
    await expect(page.getByRole('heading', { name: "Approve Jane O'Neill?" })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: "Approve Jane O'Neill" }).click();
    await expect(page.getByText('Registration approved.')).toBeVisible();
  });
}

/** The newest email to `to` whose subject matches. */
async function mailTo(to: string, subject: RegExp) {
  let found: OutboxMessage | undefined;
  await expect
    .poll(() => {
      found = readOutbox()
        .filter((m) => m.to === to && subject.test(m.subject))
        .at(-1);
      return found;
    })
    .toBeTruthy();
  return found!;
}

test.describe('home', () => {
  test('a new customer registers, staff approve in the console, home shows the approved banner', async ({
    page,
    browser,
  }) => {
    test.slow(); // a sign-up, a registration and a console visit
    const email = uniqueEmail('home');
    await signUpAndVerify(page, email, PASSWORD);
    await signedIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/clearing\/registration/);

    await registerIndividual(page, email);
    await page.goto('/clearing/home');
    await expect(page.getByRole('heading', { name: 'Welcome Jane!' })).toBeVisible();
    await expect(page.getByText(PENDING_BANNER)).toBeVisible();
    await expect(page.getByText(APPROVED_BANNER)).toHaveCount(0);

    await mailTo(email, /received/);

    await approveInConsole(browser, email);

    const statementCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/statement')) statementCalls.push(request.url());
    });
    await page.reload();
    await expect(page.getByText(APPROVED_BANNER)).toBeVisible();
    await page.waitForLoadState('networkidle');
    // Without a statement yet it is asked for once (an answer of "none" is not retried).
    expect(statementCalls).toHaveLength(1);
    await mailTo(email, /approved/);
    await expect(page.getByText(PENDING_BANNER)).toHaveCount(0);
    // No statement is loaded for the new organisation yet: the banner, not the statement.
    await expect(page.getByRole('heading', { name: 'Open Positions' })).toHaveCount(0);
  });

  test('staff ask for changes, then reject: home shows what to change, then the reason and support; both are emailed', async ({
    page,
    browser,
  }) => {
    test.slow(); // two sign-ins, a registration and two console visits
    const email = uniqueEmail('review');
    await signUpAndVerify(page, email, PASSWORD);
    await signedIn(page, email, PASSWORD);
    await registerIndividual(page, email);

    const note = 'The photo of your ID is blurred. Please send a sharper photo.';
    await inConsole(browser, email, async (console) => {
      // ID images preview inline; documents are listed by their prompts.
      const documents = console.locator('h2:has-text("Documents") + ul');
      await expect(documents).toContainText('signed document');
      await expect(documents).not.toContainText('document.agree');
      const preview = console.locator('figure.preview img').first();
      await expect(preview).toBeVisible();
      expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(
        0,
      );
      // Countries and regions by name.
      await expect(console.getByRole('table').first()).toBeVisible();
      await expect(console.getByText('United States').first()).toBeVisible();
      await expectNoSeriousA11yViolations(console);
      // Reveal shows the answer in place, as the prompt names it: no reload, the place kept.
      const address = console.url();
      const reveal = console.getByRole('button', { name: 'Reveal Date of birth (MM/DD/YYYY)' });
      await reveal.scrollIntoViewIfNeeded();
      const scrolled = await console.evaluate(() => window.scrollY);
      await reveal.click();
      await expect(console.getByText('04/17/1985')).toBeVisible();
      await expect(reveal).toHaveCount(0);
      expect(console.url()).toBe(address);
      expect(await console.evaluate(() => window.scrollY)).toBe(scrolled);
      await console.getByLabel(/A note on the whole application/).fill(note);
      await console.getByRole('button', { name: 'Request changes' }).click();
      await expect(console.getByText('Changes requested. The applicant was emailed')).toBeVisible();
    });
    // The email says changes were requested and links home, never what: a note may quote answers.
    const asked = await mailTo(email, /needs changes/);
    expect(asked.text).not.toContain(note);
    expect(asked.text).toContain('/clearing/home');
    await page.goto('/clearing/home');
    await expect(page.getByText('Your application needs changes')).toBeVisible();
    await expect(page.getByText(note)).toBeVisible();
    await expect(page.getByText(PENDING_BANNER)).toHaveCount(0);

    const reason = 'We cannot verify your identity from the documents provided.';
    await inConsole(browser, email, async (console) => {
      // Still waiting for the changes: approval waits, a rejection closes the application, and
      // asks first, naming the applicant and the reason (issue 38 §5).
      await expect(console.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
      await console.getByLabel(/Reason for rejecting/).fill(reason);
      await console.getByRole('button', { name: 'Reject' }).click();
      await expect(console.getByText('You are about to reject the registration of')).toBeVisible();
      await expect(console.getByText(reason)).toBeVisible();
      await console.getByRole('button', { name: /^Reject / }).click();
      await expect(console.getByText('Registration rejected.')).toBeVisible();
    });
    expect((await mailTo(email, /not accepted/)).text).toContain(reason);
    await page.reload();
    // The banner's title; the same words are the timeline's last step once its history loads.
    await expect(
      page.getByRole('alert').getByText('Your application was not accepted'),
    ).toBeVisible();
    await expect(
      page
        .getByRole('region', { name: 'Your application' })
        .getByText('Your application was not accepted'),
    ).toBeVisible();
    await expect(page.getByText(`Reason: ${reason}`)).toBeVisible();
    await expect(page.getByText(PENDING_BANNER)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('a customer at /clearing/admin is offered the customer site, not a loop', async ({
    page,
  }) => {
    await signedIn(page, approved.email, approved.password);
    await page.goto('/clearing/admin');
    await expect(page.getByText('This console is for staff only.')).toBeVisible();
    const links = await page
      .getByRole('link')
      .evaluateAll((all) => all.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
    expect(links).not.toContain('/clearing/admin');
    await page.getByRole('link', { name: /customer site/ }).click();
    await expect(page).toHaveURL(/\/clearing\/home/);
  });

  test('staff who open /clearing/home land in the staff console', async ({ page }) => {
    await signedIn(page, staff.email, staff.password);
    await page.goto('/clearing/home');
    await expect(page).toHaveURL(/\/clearing\/admin$/);
    await expect(page.getByRole('heading', { name: 'Registrations' })).toBeVisible();
  });

  test("the demo customer's statement renders every section", async ({ page, context }) => {
    // The largest page of the portal: every role query walks the whole statement, and axe checks
    // it all (about 11 s of this test's 25 s on a quiet machine).
    test.setTimeout(120_000);
    await signedIn(page, approved.email, approved.password);
    await page.goto('/clearing/home');
    const statement = page.getByRole('article', { name: /Customer statement/ });
    await expect(
      statement.getByRole('heading', { name: demoStatement.organizationName }),
    ).toBeVisible({ timeout: 20_000 });
    for (const title of [
      'Account Summary',
      'Open Positions',
      'Trade Confirmations',
      'Collateral',
      'Collateral Transactions',
      'Fees',
      'Funding Payments',
    ]) {
      await expect(statement.getByRole('heading', { name: title, exact: true })).toBeVisible();
    }
    await expect(statement.getByRole('heading', { name: 'Account NCF-100001-F01' })).toBeVisible();
    await expect(statement.getByRole('heading', { name: 'Account NCF-100001-P01' })).toBeVisible();
    // Values of demoStatement.json as a finance user reads them.
    const equity = statement.getByRole('table', {
      name: 'Equity and margin, account NCF-100001-F01',
    });
    await expect(equity.getByRole('row', { name: /Net liquidating value/ })).toContainText(
      '301,594.52',
    );
    const positions = statement.getByRole('table', { name: 'Open Positions' });
    await expect(positions.getByRole('row', { name: /HASH-PH-FUT/ })).toContainText('Short400');
    await expect(positions.getByRole('row', { name: /BTCUSD-PERP/ })).toContainText('97,461.5');
    const transactions = statement.getByRole('table', { name: 'Collateral Transactions' });
    await expect(transactions.getByRole('row', { name: /NCT-20261113-004733/ })).toContainText(
      '-10,000.00',
    );
    await expect(
      statement.getByRole('table', { name: 'Funding payments, BTCUSD-PERP' }),
    ).toBeVisible();

    await expectNoSeriousA11yViolations(page);

    // A trade expands to its IDs; Copy puts the Fill ID on the clipboard.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const [first] = demoStatement.trades;
    await statement
      .getByRole('button', { name: /^Show IDs of the BTC-FUT trade at 2026-11-02/ })
      .click();
    await expect(statement.getByText(first!.executionId)).toBeVisible();
    // The confirmation lasts 500 ms, about as long as a click takes to return, so a recorder
    // notes every text the live regions show rather than racing to see it.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { statusTexts: string[] }).statusTexts = seen;
      new MutationObserver(() => {
        for (const node of document.querySelectorAll('[role="status"]')) {
          if (node.textContent) seen.push(node.textContent);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await statement.getByRole('button', { name: 'Copy Fill ID' }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { statusTexts: string[] }).statusTexts))
      .toContain('Copied to Clipboard');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first!.fillId);
    await expect(statement.getByText('Copied to Clipboard')).toHaveCount(0);
  });
});
