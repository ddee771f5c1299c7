/**
 * A phone-sized screen (issue 38 §3). Below 991 px the app says it is meant for desktop (access
 * §1), and what it shows under that notice still works at 390 × 844: one column, inputs the
 * screen's width, a header whose Help link and account menu are on screen, tables that scroll
 * inside themselves, and never the page sideways. States are reached through the API
 * (savedApplication.ts); the pages themselves have their own specs.
 */
import type { Page } from '@playwright/test';
import { DEMO_SIGN_INS } from '../../src/server/seed/demoSignIns';
import {
  changeMarkedPassportCountry,
  csrf,
  PASSPORT_COUNTRY,
  submitBusiness,
} from './businessRegistration';
import { openSavedApplication, saveBusinessApplication } from './savedApplication';
import {
  expect,
  expectNoSeriousA11yViolations,
  signIn,
  signInAsStaff,
  signUpAndVerify,
  test,
  uniqueEmail,
} from './support';

test.use({ viewport: { width: 390, height: 844 } });

const PASSWORD = 'Str0ng!Pass';
const [approved, , staff] = DEMO_SIGN_INS;
const NOTICE = 'This app is available only on desktop. Please log in on another device.';
/** The narrowest text input a phone may show (issue 38 §3). */
const MIN_INPUT_WIDTH = 250;

/** The page is as wide as the screen: nothing scrolls it sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, 'the page’s width').toBeLessThanOrEqual(innerWidth);
}

/** Every text input, text area and select of the form at least 250 px wide. */
async function expectWideInputs(page: Page) {
  const widths = await page
    .locator(
      'main form input:not([type=hidden],[type=checkbox],[type=radio],[type=file]), main form textarea',
    )
    .evaluateAll((inputs) =>
      inputs
        .filter((input) => input.getClientRects().length > 0)
        .map((input) => ({
          id: input.id,
          width: Math.round(
            (input.closest('.MuiInputBase-root') ?? input).getBoundingClientRect().width,
          ),
        })),
    );
  expect(widths.length, 'inputs measured').toBeGreaterThan(3);
  expect(widths.filter(({ width }) => width < MIN_INPUT_WIDTH)).toEqual([]);
}

/** The desktop notice shows, and the header's Help link and account menu are on screen. */
async function expectHeaderFits(page: Page) {
  await expect(page.getByText(NOTICE)).toBeVisible();
  const banner = page.getByRole('banner');
  for (const control of [
    banner.getByRole('link', { name: 'Help', exact: true }),
    banner.getByRole('button', { name: 'Profile menu' }),
  ]) {
    const box = (await control.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await banner.getByRole('button', { name: 'Profile menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeInViewport();
  await page.keyboard.press('Escape');
}

async function newApplicant(page: Page): Promise<string> {
  const email = uniqueEmail('narrow');
  await signUpAndVerify(page, email, PASSWORD);
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/clearing\/registration/);
  return email;
}

test('the individual form at 390 × 844: one column, inputs the screen’s width, a header that fits', async ({
  page,
}) => {
  await newApplicant(page);
  await page.goto('/clearing/registration/individual');
  await expect(page.locator('#root_firstName')).toBeVisible({ timeout: 30_000 });
  await expectHeaderFits(page);
  await expectWideInputs(page);
  // The sections' progress follows the questions rather than squeezing them.
  const form = (await page.locator('#root_firstName').boundingBox())!;
  const progress = (await page.getByRole('complementary', { name: 'Progress' }).boundingBox())!;
  expect(progress.y).toBeGreaterThan(form.y);
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
});

test('the business form at 390 × 844: inputs the screen’s width, long prompts whole, no sideways scroll', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = await newApplicant(page);
  await saveBusinessApplication(page, email, { step: 1 });
  await openSavedApplication(page, '/clearing/registration/business');
  await expect(page.locator('#root_bizName')).toBeVisible();
  await expectHeaderFits(page);
  await expectWideInputs(page);
  // A prompt too long for the input's outline is drawn above it, whole.
  const prompt = page.locator('label[for="root_nfaBylaw1101_exemptCftcOrNfaMemberExplain"]');
  await expect(prompt).toHaveText(/and be a member of NFA/);
  expect(await prompt.evaluate((label) => label.scrollWidth <= label.clientWidth)).toBe(true);
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
});

test('change mode at 390 × 844: the marked person’s Edit is reachable, the persons table scrolls inside itself', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const email = await newApplicant(page);
  const registrationId = await submitBusiness(page.request, page.context(), email);
  const staffPage = await signInAsStaff(browser);
  const note = 'Her passport was issued by New Zealand.';
  const asked = await staffPage.request.post('/exchange/api/admin/onboarding/kyc-changes-request', {
    data: { registrationId, note: 'One thing to fix.', fields: [{ path: PASSPORT_COUNTRY, note }] },
    headers: await csrf(staffPage.context()),
  });
  expect(asked.status(), await asked.text()).toBe(200);
  // The reviewer's page at 390 px: the persons table scrolls in its frame and keeps every word
  // of a name whole (one line box per word), the page keeps the screen's width.
  await staffPage.setViewportSize({ width: 390, height: 844 });
  await staffPage.goto(`/clearing/admin/registrations/${registrationId}`);
  const names = staffPage.locator('table.persons td a');
  await expect(names).toHaveCount(2);
  const brokenWords = await names.evaluateAll((links) =>
    links.flatMap((link) => {
      const text = link.firstChild!;
      const broken: string[] = [];
      for (const match of link.textContent!.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        if (range.getClientRects().length > 1) broken.push(match[0]);
      }
      return broken;
    }),
  );
  expect(brokenWords).toEqual([]);
  await expectNoSidewaysScroll(staffPage);
  await staffPage.context().close();

  await page.goto('/clearing/registration/business/changes');
  const persons = page.getByRole('table', { name: /^Affiliated persons/ });
  await expect(persons).toBeVisible({ timeout: 30_000 });
  // The table, with its "Change requested" chip, may be wider than the screen: it scrolls in
  // its frame, which stays within the screen, and the page does not.
  const frameRight = await persons.evaluate(
    (table) => table.parentElement!.getBoundingClientRect().right,
  );
  expect(frameRight).toBeLessThanOrEqual(390);
  await expectNoSidewaysScroll(page);
  await changeMarkedPassportCountry(page, note, 'NZ');
  await expectNoSeriousA11yViolations(page);
});

test('the statement at 390 × 844: its tables scroll inside themselves, the page does not', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, approved.email, approved.password);
  await expect(page).toHaveURL(/\/clearing\/home/);
  const trades = page.getByRole('region', { name: 'Trade Confirmations, scrolls sideways' });
  await expect(trades.getByRole('table', { name: 'Trade Confirmations' })).toBeVisible({
    timeout: 30_000,
  });
  await expectHeaderFits(page);
  // Wider than the screen, the table scrolls in its frame, which the keyboard reaches.
  const frame = await trades.evaluate((box) => ({
    scrollWidth: box.scrollWidth,
    clientWidth: box.clientWidth,
    right: box.getBoundingClientRect().right,
  }));
  expect(frame.scrollWidth).toBeGreaterThan(frame.clientWidth);
  expect(frame.right).toBeLessThanOrEqual(390);
  await trades.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => trades.evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
});

test('the staff console at 390 × 844: its list and a registration’s page keep the screen’s width', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, staff.email, staff.password);
  await expect(page).toHaveURL(/\/clearing\/admin/);
  await expect(page.getByRole('heading', { level: 1, name: 'Registrations' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.getByRole('row').getByRole('link').first().click();
  await expect(page.getByRole('heading', { name: 'Signature evidence' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
});
