import { fillIndividualForm, prompt, signUpAndSignIn } from './individualForm';
import {
  expect,
  expectNoSeriousA11yViolations,
  openRegistrationAsStaff,
  test,
  uniqueEmail,
} from './support';

test('a new user registers as an individual with real files and lands on home, pending review', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('individual');
  await signUpAndSignIn(page, email);

  await page.getByLabel(/Individual/).check();
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/clearing\/registration\/individual$/);
  await expect(page.getByText('you cannot fill it out for someone else')).toBeVisible();
  await expect(page.locator('#root_primaryEmailAddress')).toHaveValue(email);
  const review = page.getByRole('button', { name: 'Review your answers' });
  await expect(review).toBeDisabled();
  // The sections' progress beside the long page: each section with what it still needs.
  const progress = page.getByRole('navigation', { name: 'Sections' });
  await expect(progress.getByRole('link')).toHaveText([
    'About you',
    'Contact details',
    'Address',
    'Photo ID',
    'Employment',
    'Income and account',
    'Household',
    'Futures trading questionnaire',
    'Agreements and signature',
  ]);
  const aboutYou = progress.getByRole('listitem').filter({ hasText: 'About you' });
  await expect(aboutYou).toContainText('4 answers needed');
  await expectNoSeriousA11yViolations(page);

  // Validation runs on blur of the field left, not on untouched fields.
  await page.locator('#root_socialSecurityNumber').pressSequentially('12345');
  await page.locator('#root_socialSecurityNumber').blur();
  // Beside the field (the error summary beside the form repeats it as a link).
  const form = page.locator('form');
  await expect(form.getByText('Incorrect SSN format, must be NNN-NN-NNNN')).toBeVisible();
  await expect(
    page.getByRole('link', { name: 'Incorrect SSN format, must be NNN-NN-NNNN' }),
  ).toBeVisible();
  await expect(page.getByText('Must provide first name')).toHaveCount(0);
  await page.locator('#root_socialSecurityNumber').fill('');
  await page.locator('#root_socialSecurityNumber').pressSequentially('123456789');
  await expect(page.locator('#root_socialSecurityNumber')).toHaveValue('123-45-6789');

  await page.locator('#root_mailingAddress_postalCode').fill('1011');
  await page.locator('#root_mailingAddress_postalCode').blur();
  await expect(form.getByText('Postal code must be 5 digits.')).toBeVisible();
  await fillIndividualForm(page);
  await expect(page.locator('#root_dateOfBirth')).toHaveValue('04/17/1985');
  await expect(page.locator('#root_primaryPhoneNumber')).toHaveValue(/^\+1 212 555 0142$/);
  await expect(page.locator('#root_mailingAddress_postalCode')).toHaveValue('10118');
  await expect(page.getByText('id-front.png')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove Signature' })).toHaveCount(6);
  await expect(page.getByRole('link', { name: prompt('agreeTermsOfService') })).toHaveAttribute(
    'href',
    '/assets/pdfs/terms-of-service.pdf',
  );

  // Every section complete; the progress link brings its section's heading into focus.
  await expect(progress.getByText('Complete')).toHaveCount(9, { timeout: 15_000 });
  await progress.getByRole('link', { name: 'Employment' }).click();
  await expect(page.getByRole('heading', { name: 'Employment', level: 3 })).toBeFocused();

  // The review before submitting: the same prompts and answers, Edit per section.
  await expect(review).toBeEnabled({ timeout: 15_000 });
  await review.click();
  const reviewHeading = page.getByRole('heading', { name: 'Review', level: 2 });
  await expect(reviewHeading).toBeFocused();
  await expect(page).toHaveURL(/\/registration\/individual\?step=review$/);
  const answerOf = (key: string) =>
    page
      .locator('dt', { hasText: prompt(key) })
      .first()
      .locator('xpath=following-sibling::dd[1]');
  await expect(answerOf('employerName')).toHaveText('Acme Analytics LLC');
  await expect(answerOf('socialSecurityNumber')).toHaveText('•••••••6789');
  await expect(answerOf('photoId')).toHaveText('id-front.png');
  await expectNoSeriousA11yViolations(page);
  // Edit lands at its section, answers kept; the browser's Back and Forward move between steps.
  await page.getByRole('button', { name: 'Edit Address (Your details)' }).click();
  await expect(page.getByRole('heading', { name: 'Address', level: 3 })).toBeFocused();
  await expect(page.locator('#root_mailingAddress_line1')).toHaveValue('350 Fifth Avenue');
  await page.goBack();
  await expect(reviewHeading).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Your details', level: 2 })).toBeVisible();
  await expect(page).toHaveURL(/\/registration\/individual$/);
  await page.goForward();
  await expect(reviewHeading).toBeFocused();

  const submit = page.getByRole('button', { name: 'Submit Registration' });
  await expect(submit).toBeEnabled({ timeout: 15_000 });
  await submit.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText(/received/i);
  // The remembered account type is cleared on success.
  expect(
    await page.evaluate(() => localStorage.getItem('clearing.registration.accountType')),
  ).toBeNull();
  // The dialog focuses its way on (not its container), so Enter continues.
  await expect(dialog.getByRole('button', { name: 'Continue' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/clearing\/home$/);
  await expect(page.getByRole('heading', { name: 'Welcome Jane!' })).toBeVisible();
  await expect(page.getByText(/application has been received/i)).toBeVisible();
  // Drafts are gone after a successful submission.
  expect(await page.evaluate(() => localStorage.getItem('clearing.draft.individual'))).toBeNull();

  // Staff see the stored registration: every prompt beside its answer, documents attached.
  const staffPage = await openRegistrationAsStaff(browser, email, /Jane Sample/);
  const detail = staffPage.locator('main');
  for (const key of [
    'firstName',
    'lastName',
    'dateOfBirth',
    'socialSecurityNumber',
    'primaryEmailAddress',
    'primaryPhoneNumber',
    'idType',
    'photoId',
    'photoIdBack',
    'employmentStatus',
    'employerName',
    'annualIncome',
    'approximateNetWorth',
    'irsFormW2',
    'typeOfTradingAccount',
    'marriedStatus',
    'numberOfDependents',
    'yearsOfExperience',
    'relationToNorthstarEmployee',
    'unsatisfiedDebts',
    'agreeTermsOfService',
    'agreeSignature',
  ]) {
    await expect(detail.getByText(prompt(key), { exact: false }).first()).toBeVisible();
  }
  await expect(detail.getByText('Acme Analytics LLC')).toBeVisible();
  await expect(detail.getByText(/•••-••-6789/)).toBeVisible();
  await expect(detail.getByRole('link', { name: /id-front\.png/ }).first()).toBeVisible();
  await staffPage.context().close();
});

test('the browser draft keeps no SSN; the application on the server brings it back; offline, the draft opens without it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('draft');
  await signUpAndSignIn(page, email);
  await page.goto('/clearing/registration/individual');
  await page.locator('#root_firstName').fill('Drafty');
  await page.locator('#root_socialSecurityNumber').pressSequentially('123456789');
  await page.locator('#root_lastName').click();
  const draftOf = () => page.evaluate(() => localStorage.getItem('clearing.draft.individual'));
  await expect.poll(draftOf).toContain('Drafty');
  expect(await draftOf()).not.toMatch(/123-?45-?6789/);
  const status = page.getByRole('status').filter({ hasText: /Sav|Not saved/ });
  await expect(status).toHaveText(/^Saved /, { timeout: 15_000 });

  // The application on the server holds every answer, the SSN too.
  await page.reload();
  await expect(page.locator('#root_firstName')).toHaveValue('Drafty');
  await expect(page.locator('#root_socialSecurityNumber')).toHaveValue('123-45-6789');
  expect(await draftOf()).not.toMatch(/123-?45-?6789/);

  // The application cannot be loaded: the page says so, and this device's draft opens the form,
  // without the SSN it never kept.
  await page.route(/\/applications\/individual$/, (route) =>
    route.request().method() === 'GET' ? route.abort('internetdisconnected') : route.fallback(),
  );
  await page.reload();
  await expect(page.getByText('Your saved application could not be loaded')).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Continue on this device' }).click();
  await expect(page.locator('#root_firstName')).toHaveValue('Drafty');
  await expect(page.locator('#root_socialSecurityNumber')).toHaveValue('');
});
