/**
 * The review flow of issue 17 through the pages, in Chromium: staff mark answers in the console,
 * the applicant sees each requested change by its prompt, makes exactly those changes and
 * resubmits, staff see version 2 with what changed and approve, the applicant's home says so.
 * The first submission is the set-up (the wizard has its own spec); everything after it is the
 * UI.
 */
import type { Page } from '@playwright/test';
import { largePdf } from '../fixtures/pdfs';
import { testForm } from '../forms';
import {
  changeMarkedPassportCountry,
  PASSPORT_COUNTRY,
  sendChanges,
  submitBusiness,
} from './businessRegistration';
import { PASSWORD, signUpAndSignIn } from './individualForm';
import {
  expect,
  expectNoSeriousA11yViolations,
  openRegistrationAsStaff,
  signIn,
  test,
  uniqueEmail,
  uploadShowingProgress,
} from './support';

const form = testForm('business');
/** The business form's tax document (W-9, or W-8BEN-E abroad): the document staff mark. */
const W8 = '/w8orw9';
const w8Prompt = form.schema.properties!.w8orw9!.title!;
/** The second affiliated person of the example answers holds a passport issued in Australia. */
const W8_NOTE = 'The W-9 is not signed; please upload the signed copy.';
const COUNTRY_NOTE = 'Her current passport was issued by New Zealand.';
const WHOLE_NOTE = 'Two things to fix, then we can decide.';

/** The console's element of an answer (its id from the pointer, as RegistrationAnswers makes it). */
const answerIn = (page: Page, pointer: string) => page.locator(`#a${pointer.replaceAll('/', '-')}`);

/** Opens the answer's Mark, ticks it and writes the note for the applicant. */
async function mark(page: Page, pointer: string, note: string) {
  const answer = answerIn(page, pointer);
  await answer.locator('summary').filter({ hasText: 'Mark' }).click();
  await answer.getByRole('checkbox', { name: 'Ask the applicant to change this' }).check();
  await answer.getByRole('textbox', { name: /^Note on/ }).fill(note);
}

/** A screenshot beside the test's results, to look at the screen as a user does. */
async function shot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage });
}

test('staff mark the tax form and a person’s passport country in the console; the applicant changes exactly those and resubmits; staff see version 2 with the diff and approve', async ({
  page,
  browser,
}) => {
  test.setTimeout(420_000);
  const email = uniqueEmail('business.review');
  await signUpAndSignIn(page, email);
  const registrationId = await submitBusiness(page.request, page.context(), email);

  // Staff open it from the queue and mark two answers, each with a note, and the whole.
  const staffPage = await openRegistrationAsStaff(browser, email, /Review/);
  await expect(staffPage).toHaveURL(new RegExp(`/clearing/admin/registrations/${registrationId}`));
  await mark(staffPage, W8, W8_NOTE);
  await mark(staffPage, PASSPORT_COUNTRY, COUNTRY_NOTE);
  await staffPage.getByLabel(/A note on the whole application/).fill(WHOLE_NOTE);
  await expectNoSeriousA11yViolations(staffPage);
  await answerIn(staffPage, PASSPORT_COUNTRY).scrollIntoViewIfNeeded();
  await shot(staffPage, 'console-marking');
  await staffPage.getByRole('button', { name: 'Request changes' }).click();
  await expect(staffPage).toHaveURL(/decided=changes_requested/);
  await expect(
    staffPage.getByText('Changes requested. The applicant was emailed what to change.'),
  ).toBeVisible();

  // The applicant signs in: home lists both changes by prompt with the notes.
  await page.context().clearCookies();
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/clearing\/home$/);
  await expect(page.getByText('Your application needs changes')).toBeVisible();
  const tasks = page.getByRole('list', { name: 'Requested changes' }).getByRole('listitem');
  await expect(tasks).toHaveText([
    `${w8Prompt}: ${W8_NOTE}`,
    `Affiliated person 2: Passport country of issuance: ${COUNTRY_NOTE}`,
  ]);
  await expect(page.getByText(WHOLE_NOTE)).toBeVisible();
  await shot(page, 'home-changes-requested');

  // Change mode: the marked questions editable with their notes, the first focused; the rest
  // read-only.
  await page.getByRole('link', { name: 'Make the changes' }).click();
  await expect(page).toHaveURL(/\/clearing\/registration\/business\/changes/);
  const taxBox = page.locator(`[data-requested-change="${W8}"]`);
  await expect(taxBox).toContainText(W8_NOTE);
  await expect(taxBox.locator(':focus')).toHaveCount(1);
  await expect(page.locator('[data-read-only-answer="/bizName"] dd')).not.toBeEmpty();
  await expect(page.locator('#root_bizName')).toHaveCount(0);
  await expect(page.locator('#root_bizEmail')).toHaveCount(0);
  await shot(page, 'change-mode', false); // where the focus took the page

  // The signed W-9 replaces the tax form, its upload seen as it goes.
  await uploadShowingProgress(page, '#root_w8orw9', {
    name: 'w9-signed.pdf',
    mimeType: 'application/pdf',
    buffer: await largePdf(3 * 1024 * 1024),
  });
  await expect(taxBox.getByText('w9-signed.pdf')).toBeVisible();

  // Only the second person may change, and in her only the passport country.
  await changeMarkedPassportCountry(page, COUNTRY_NOTE, 'NZ');
  await sendChanges(page);

  // Staff: version 2, what changed by prompt (the country, the document replaced), then approve.
  await staffPage.goto(`/clearing/admin/registrations/${registrationId}`);
  await staffPage.getByRole('link', { name: 'What changed in version 2 ↓' }).click();
  await expect(staffPage).toHaveURL(/#changes-v2$/);
  const versions = staffPage.locator('section[aria-labelledby="versions-heading"]');
  await expect(versions.getByRole('heading', { name: 'Versions' })).toBeVisible();
  const listed = versions.getByRole('table').first().getByRole('row');
  await expect(listed).toHaveCount(3);
  await expect(listed.nth(1).getByRole('cell').first()).toHaveText('1');
  await expect(listed.nth(2).getByRole('cell').first()).toHaveText('2');
  await expect(listed.nth(2)).toContainText(form.hash);
  const diff = versions.getByRole('table', { name: 'What changed from version 1 to version 2' });
  await expect(diff.getByRole('row', { name: /Affiliated person 2: Passport country/ })).toHaveText(
    'Affiliated person 2: Passport country of issuanceAustraliaNew Zealand',
  );
  await expect(diff.getByRole('row', { name: w8Prompt })).toHaveText(
    `${w8Prompt}w8orw9.pdfw9-signed.pdf (replaced)`,
  );
  await expect(diff.getByRole('row')).toHaveCount(3); // the header and the two changes
  await shot(staffPage, 'console-versions', false);
  await staffPage.getByRole('button', { name: 'Approve…' }).click();
  await staffPage.getByRole('button', { name: /^Approve / }).click();
  await expect(
    staffPage.getByText('Registration approved. The applicant was emailed.'),
  ).toBeVisible();
  await staffPage.context().close();

  await page.reload();
  await expect(page.getByText('Your application has been approved.')).toBeVisible();
});
