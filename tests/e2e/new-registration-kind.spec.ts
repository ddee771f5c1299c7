/**
 * Issue 25 §1: a registration kind that lives only in a test folder (FORMS_DIR, set by
 * playwright.config.ts to tests/fixtures/forms-dir) goes through the whole loop with no code
 * written for it: chosen on the choice page, answered (a file, a condition, a list, an agreement
 * signed after the e-sign consent), saved, resumed in a fresh browser, submitted; listed in the
 * console by its organisation's name, a change requested on one answer, made, resubmitted,
 * diffed and approved.
 */
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { PLAIN_PDF } from './businessRegistration';
import { signAgreements } from './esignConsent';
import { PASSWORD, signUpAndSignIn } from './individualForm';
import {
  expect,
  expectNoSeriousA11yViolations,
  signIn,
  signInAsStaff,
  test,
  uniqueEmail,
} from './support';

const FOLDER = 'tests/fixtures/forms-dir/introducing-broker';
const read = (file: string) =>
  JSON.parse(fs.readFileSync(`${FOLDER}/introducing-broker.${file}.json`, 'utf8')) as {
    [key: string]: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the form's files as JSON
  };
const schema = read('schema');
const ui = read('ui');
const registration = schema['x-registration'];
const steps = ui['ui:steps'] as { title: string; next: string }[];
const guarantorPrompt: string = schema.allOf[0].then.properties.guarantorName.title;

/** The console's element of an answer (its id from the pointer, as RegistrationAnswers makes it). */
const answerIn = (page: Page, pointer: string) => page.locator(`#a${pointer.replaceAll('/', '-')}`);

test('a registration kind from a folder alone: chosen, answered, saved, resumed, submitted, changed on request and approved', async ({
  page,
  browser,
}) => {
  test.setTimeout(420_000);
  const email = uniqueEmail('broker');
  const brokerName = `Harbour Introducing Brokers ${Date.now()}`;
  await signUpAndSignIn(page, email);

  // The choice page offers it as its schema says, after Individual and Business.
  const choices = page.getByRole('radio');
  await expect(choices).toHaveCount(3);
  await expect(page.getByText(registration.choice.description)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel(new RegExp(registration.choice.label)).check();
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/clearing\/registration\/introducing-broker$/);
  await expect(page).toHaveTitle(new RegExp(registration.page.title));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(schema.title);
  await expect(page.getByRole('link', { name: registration.page.otherChoice })).toBeVisible();

  // Step 1: the user's details.
  await page.locator('#root_firstName').fill('Maya');
  await page.locator('#root_lastName').fill('Lindqvist');
  await page.locator('#root_phoneNumber').pressSequentially('+12125550143');
  await page.getByRole('button', { name: steps[0]!.next }).click();

  // Step 2: a file, a condition, a list, an agreement signed after the e-sign consent.
  await page.locator('#root_brokerName').fill(brokerName);
  await page.locator('#root_nfaRegistration').setInputFiles(PLAIN_PDF);
  await expect(page.getByText('w2-sample.pdf')).toBeVisible();
  await expect(page.locator('#root_guarantorName')).toBeDisabled();
  await page.locator('#root_isGuaranteed').check();
  await page.locator('#root_guarantorName').fill('Northstar Futures LLC');
  await page.getByRole('button', { name: ui.branchOffices['ui:options'].addLabel }).click();
  await page.locator('#root_branchOffices_0').fill('Chicago');
  await signAgreements(page, 1);
  await expectNoSeriousA11yViolations(page);
  const status = page.getByRole('status').filter({ hasText: /Sav|Not saved/ });
  await expect(status).toHaveText(/^Saved \d{1,2}:\d{2} (AM|PM)$/, { timeout: 15_000 });
  await page.getByRole('link', { name: 'Signout' }).click();
  await expect(page).toHaveURL(/\/clearing\/signin/);

  // Another device: the application opens where it was left, every answer there.
  const other = await (await browser.newContext()).newPage();
  await signIn(other, email, PASSWORD);
  await expect(other).toHaveURL(/\/clearing\/registration\/introducing-broker/, {
    timeout: 15_000,
  });
  await expect(other.locator('#root_brokerName')).toHaveValue(brokerName);
  await expect(other.locator('#root_guarantorName')).toHaveValue('Northstar Futures LLC');
  await expect(other.locator('#root_branchOffices_0')).toHaveValue('Chicago');
  await expect(other.getByText('w2-sample.pdf')).toBeVisible();
  await other.getByRole('button', { name: steps[1]!.next }).click();
  await expect(other.getByText(brokerName)).toBeVisible();
  await other.getByRole('button', { name: steps[2]!.next }).click();
  const submitted = other.getByRole('dialog', { name: registration.submitted.title });
  await expect(submitted).toBeVisible({ timeout: 30_000 });
  await expect(submitted).toContainText(registration.submitted.text);
  await submitted.getByRole('button', { name: registration.submitted.button }).click();
  await expect(other).toHaveURL(/\/clearing\/home$/);

  // Staff find it in the console by the broker's name and ask for one change.
  const staffPage = await signInAsStaff(browser);
  const row = staffPage.getByRole('row').filter({ hasText: brokerName });
  await expect(row).toHaveCount(1);
  await row.getByRole('link', { name: /Review/ }).click();
  await expect(answerIn(staffPage, '/guarantorName')).toContainText(guarantorPrompt);
  await expect(answerIn(staffPage, '/guarantorName')).toContainText('Northstar Futures LLC');
  const answer = answerIn(staffPage, '/guarantorName');
  await answer.locator('summary').filter({ hasText: 'Mark' }).click();
  await answer.getByRole('checkbox', { name: 'Ask the applicant to change this' }).check();
  await answer.getByRole('textbox', { name: /^Note on/ }).fill('Please give the full legal name.');
  await expectNoSeriousA11yViolations(staffPage);
  await staffPage.getByRole('button', { name: 'Request changes' }).click();
  await expect(staffPage).toHaveURL(/decided=changes_requested/);

  // The applicant makes exactly that change and resubmits.
  await other.goto('/clearing/home');
  await expect(other.getByRole('list', { name: 'Requested changes' })).toHaveText(
    `${guarantorPrompt}: Please give the full legal name.`,
  );
  await other.getByRole('link', { name: 'Make the changes' }).click();
  await expect(other).toHaveURL(/\/clearing\/registration\/introducing-broker\/changes/);
  await expect(other.locator('#root_brokerName')).toHaveCount(0);
  await other.locator('#root_guarantorName').fill('Northstar Futures Clearing LLC');
  await other.getByRole('button', { name: steps[1]!.next }).click();
  await other.getByRole('button', { name: steps[2]!.next }).click();
  const sent = other.getByRole('dialog', { name: 'Changes Sent' });
  await expect(sent).toBeVisible({ timeout: 30_000 });
  await sent.getByRole('button', { name: 'Continue' }).click();
  await expect(other).toHaveURL(/\/clearing\/home$/);

  // Staff see what changed, by prompt, and approve.
  await staffPage.reload();
  await staffPage.getByRole('link', { name: 'What changed in version 2 ↓' }).click();
  const diff = staffPage.getByRole('table', {
    name: 'What changed from version 1 to version 2',
  });
  await expect(diff.getByRole('row', { name: guarantorPrompt })).toHaveText(
    `${guarantorPrompt}Northstar Futures LLCNorthstar Futures Clearing LLC`,
  );
  await staffPage.getByRole('button', { name: 'Approve…' }).click();
  await staffPage.getByRole('button', { name: /^Approve / }).click();
  await expect(
    staffPage.getByText('Registration approved. The applicant was emailed.'),
  ).toBeVisible();
  await staffPage.context().close();

  await other.reload();
  await expect(other.getByText('Your application has been approved.')).toBeVisible();
  await other.context().close();
});
