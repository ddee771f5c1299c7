import { testForm } from '../forms';
import {
  changeMarkedPassportCountry,
  csrf,
  PASSPORT_COUNTRY,
  PLAIN_PDF,
  sendChanges,
  submitBusiness,
} from './businessRegistration';
import { PASSWORD, signUpAndSignIn } from './individualForm';
import { expect, signInAsStaff, test, uniqueEmail } from './support';

const W8 = '/w8orw9';
const form = testForm('business');
const w8Prompt = form.schema.properties!.w8orw9!.title!;

test('changes requested on the tax form and a person’s passport country: the applicant sees both by prompt, makes exactly those changes, resubmits; staff approve', async ({
  page,
  browser,
}) => {
  test.setTimeout(360_000);
  const email = uniqueEmail('business.changes');
  await signUpAndSignIn(page, email);
  const registrationId = await submitBusiness(page.request, page.context(), email);

  // Staff ask for two changes through the admin API, each with a note.
  const staffPage = await signInAsStaff(browser);
  const staffContext = staffPage.context();
  const asked = await staffPage.request.post('/exchange/api/admin/onboarding/kyc-changes-request', {
    data: {
      registrationId,
      note: 'Two things to fix before we decide.',
      fields: [
        { path: W8, note: 'The scan is blurred; please upload a sharper copy.' },
        { path: PASSPORT_COUNTRY, note: 'Her passport was issued by New Zealand.' },
      ],
    },
    headers: await csrf(staffContext),
  });
  expect(asked.status(), await asked.text()).toBe(200);

  // Home lists both tasks by prompt with the reviewer's notes.
  await page.goto('/clearing/home');
  await expect(page.getByText('Your application needs changes')).toBeVisible();
  const tasks = page.getByRole('list', { name: 'Requested changes' });
  await expect(tasks.getByRole('listitem')).toHaveCount(2);
  await expect(tasks.getByRole('listitem').nth(0)).toHaveText(
    `${w8Prompt}: The scan is blurred; please upload a sharper copy.`,
  );
  await expect(tasks.getByRole('listitem').nth(1)).toHaveText(
    'Affiliated person 2: Passport country of issuance: Her passport was issued by New Zealand.',
  );
  await expect(page.getByText('Two things to fix before we decide.')).toBeVisible();
  await expect(page.getByText('We asked you for changes')).toBeVisible();

  // The form in change mode: the tax form first, outlined with the note and focused.
  await page.getByRole('link', { name: 'Make the changes' }).click();
  await expect(page).toHaveURL(/\/clearing\/registration\/business\/changes/);
  const taxBox = page.locator(`[data-requested-change="${W8}"]`);
  await expect(taxBox).toContainText('The scan is blurred; please upload a sharper copy.');
  await expect(taxBox.locator(':focus')).toHaveCount(1);
  // Everything else is as submitted, drawn as text as the review draws it: no input to focus.
  const bizName = page.locator('[data-read-only-answer="/bizName"]');
  await expect(bizName.locator('dt')).toHaveText(form.schema.properties!.bizName!.title!);
  await expect(bizName.locator('dd')).toHaveText(String(form.example.bizName));
  await expect(page.locator('#root_bizName')).toHaveCount(0);
  await expect(page.locator('#root_certificateOfInc-choose')).toHaveCount(0);
  // Nothing to reset: the other answers stay as submitted.
  await expect(page.getByRole('button', { name: 'Reset Form' })).toHaveCount(0);
  // The sections beside the form mark the two that hold a requested change.
  const sections = page.getByRole('navigation', { name: 'Sections' });
  const stateOf = (title: string) =>
    sections.getByRole('listitem').filter({ has: page.getByRole('link', { name: title }) });
  await expect(stateOf('Tax information')).toContainText('1 change requested');
  await expect(stateOf('Affiliated persons')).toContainText('1 change requested');
  await expect(stateOf('Website')).toContainText('Complete');
  await page.locator('#root_w8orw9').setInputFiles(PLAIN_PDF);
  await expect(taxBox.getByText('w2-sample.pdf')).toBeVisible();

  // The second person's row opens; only her passport country may change (no Remove).
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: 'Change requested' })
      .getByRole('button', { name: /Remove/ }),
  ).toHaveCount(0);
  await changeMarkedPassportCountry(page, 'Her passport was issued by New Zealand.', 'NZ');

  // To Confirm and submit: the resubmission.
  await sendChanges(page);
  await expect(page.getByText(/application has been received/i)).toBeVisible();

  // Staff see version 2 with the new answers, and approve.
  const versions = await staffPage.request.get(
    `/exchange/api/admin/onboarding/organizations?status=resubmitted`,
  );
  expect(
    ((await versions.json()) as { data: { registrationId: string }[] }).data.map(
      (r) => r.registrationId,
    ),
  ).toContain(registrationId);
  const approved = await staffPage.request.post('/exchange/api/admin/onboarding/kyc-approval', {
    data: { registrationId, approved: true },
    headers: await csrf(staffContext),
  });
  expect(approved.status()).toBe(200);
  await staffContext.close();

  await page.reload();
  await expect(page.getByText('Your application has been approved.')).toBeVisible();
  await expect(page.getByText('Your application was approved')).toBeVisible();
});

test('change mode saves as the applicant works: the change is there in a fresh browser, still in change mode, and resubmits', async ({
  page,
  browser,
}) => {
  test.setTimeout(360_000);
  const email = uniqueEmail('business.changes.saved');
  await signUpAndSignIn(page, email);
  const registrationId = await submitBusiness(page.request, page.context(), email);
  const staffPage = await signInAsStaff(browser);
  const asked = await staffPage.request.post('/exchange/api/admin/onboarding/kyc-changes-request', {
    data: {
      registrationId,
      fields: [{ path: PASSPORT_COUNTRY, note: 'Her passport was issued by New Zealand.' }],
    },
    headers: await csrf(staffPage.context()),
  });
  expect(asked.status(), await asked.text()).toBe(200);
  await staffPage.context().close();

  // The change made in change mode is saved on the server ("Saved" in the status region).
  await page.goto('/clearing/registration/business/changes');
  const row = page.getByRole('row').filter({ hasText: 'Change requested' });
  await row.getByRole('button', { name: /Edit/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('#root_affiliatedPersons_1_passportCountryOfIssuance').selectOption('NZ');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /^Saved/ })).toBeVisible({
    timeout: 15_000,
  });

  // Another device: signed in afresh, the form reopens in change mode with the change kept.
  const other = await (await browser.newContext()).newPage();
  await other.goto('/clearing/signin');
  await other.getByLabel('Email').fill(email);
  await other.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await other.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(other).toHaveURL(/\/clearing\/home/, { timeout: 15_000 });
  await other.getByRole('link', { name: 'Make the changes' }).click();
  await expect(other).toHaveURL(/\/clearing\/registration\/business\/changes/);
  await expect(other.locator('[data-read-only-answer="/bizName"]')).toBeVisible();
  const otherRow = other.getByRole('row').filter({ hasText: 'Change requested' });
  await otherRow.getByRole('button', { name: /Edit/ }).click();
  const otherDialog = other.getByRole('dialog');
  await expect(otherDialog.locator(`[data-requested-change="${PASSPORT_COUNTRY}"]`)).toContainText(
    'Her passport was issued by New Zealand.',
  );
  await expect(
    otherDialog.locator('#root_affiliatedPersons_1_passportCountryOfIssuance'),
  ).toHaveValue('NZ');
  // Still editable: the rule reads the answers as submitted, not as saved since.
  await expect(
    otherDialog.locator('#root_affiliatedPersons_1_passportCountryOfIssuance'),
  ).toBeEnabled();
  await expect(otherDialog.locator('#root_affiliatedPersons_1_firstName')).toHaveCount(0);
  await otherDialog.getByRole('button', { name: 'Save' }).click();
  await expect(otherDialog).toHaveCount(0);

  // Resubmitted from there.
  const steps = form.steps!;
  await other.getByRole('button', { name: steps[1]!.next }).click();
  await other.getByRole('button', { name: steps[2]!.next }).click();
  const sent = other.getByRole('dialog', { name: 'Changes Sent' });
  await expect(sent).toBeVisible({ timeout: 30_000 });
  await sent.getByRole('button', { name: 'Continue' }).click();
  await expect(
    other.getByText('You sent the changes; we are reviewing your application again'),
  ).toBeVisible();
});
