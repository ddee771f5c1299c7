import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { firm } from '../../src/shared/config/firm';
import { DEMO_SIGN_INS } from '../../src/server/seed/demoSignIns';
import { expectNoSeriousA11yViolations, linkFromOutbox, uniqueEmail } from './support';

const PASSWORD = 'Str0ng!Pass';
const staff = DEMO_SIGN_INS[2];

interface SchemaNode {
  title?: string;
  properties?: Record<string, SchemaNode>;
  allOf?: { then?: SchemaNode; else?: SchemaNode }[];
}
/** Prompts come from the schema file, as the form shows them ({firm} filled in). */
const schema = JSON.parse(
  fs.readFileSync('schemas/individual/individual.schema.json', 'utf8'),
) as SchemaNode;
const prompt = (key: string) => {
  const conditional = schema.allOf?.flatMap((part) => [
    part.then?.properties?.[key],
    part.else?.properties?.[key],
  ]);
  const title = [schema.properties?.[key], ...(conditional ?? [])].find((p) => p?.title)?.title;
  if (!title) throw new Error(`no prompt for ${key}`);
  return title.replaceAll('{firm}', firm.displayName);
};

async function signUpAndSignIn(page: Page, email: string) {
  await page.goto('/clearing/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await expect(page.getByText('Verify your email with the link sent to your email.')).toBeVisible();
  await page.goto(await linkFromOutbox(page.request, email, '/clearing/user/verify-email'));
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: /set password|submit|save/i }).click();
  await expect(page).toHaveURL(/\/clearing\/signin/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/clearing\/registration$/);
}

async function choose(page: Page, key: string, option: string) {
  await page.getByRole('combobox', { name: prompt(key) }).selectOption({ label: option });
}

async function yesNo(page: Page, key: string, yes: boolean) {
  await page.locator(`#root_${key}-${yes ? 0 : 1}`).check();
}

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
  const submit = page.getByRole('button', { name: 'Submit Registration' });
  await expect(submit).toBeDisabled();
  await expectNoSeriousA11yViolations(page);

  // Validation runs on blur of the field left, not on untouched fields.
  await page.locator('#root_socialSecurityNumber').pressSequentially('12345');
  await page.locator('#root_socialSecurityNumber').blur();
  await expect(page.getByText('Incorrect SSN format, must be NNN-NN-NNNN')).toBeVisible();
  await expect(page.getByText('Must provide first name')).toHaveCount(0);
  await page.locator('#root_socialSecurityNumber').fill('');
  await page.locator('#root_socialSecurityNumber').pressSequentially('123456789');
  await expect(page.locator('#root_socialSecurityNumber')).toHaveValue('123-45-6789');

  await page.locator('#root_firstName').fill('Jane');
  await page.locator('#root_lastName').fill('Sample');
  await page.locator('#root_dateOfBirth').pressSequentially('04171985');
  await expect(page.locator('#root_dateOfBirth')).toHaveValue('04/17/1985');
  await page.locator('#root_primaryPhoneNumber').pressSequentially('12125550142');
  await expect(page.locator('#root_primaryPhoneNumber')).toHaveValue(/^\+1 212 555 0142$/);

  await page.locator('#root_mailingAddress_line1').fill('350 Fifth Avenue');
  await page.locator('#root_mailingAddress_locality').fill('New York');
  await page.locator('#root_mailingAddress_region').selectOption('NY');
  await page.locator('#root_mailingAddress_postalCode').fill('1011');
  await page.locator('#root_mailingAddress_postalCode').blur();
  await expect(page.getByText('Postal code must be 5 digits.')).toBeVisible();
  await page.locator('#root_mailingAddress_postalCode').fill('10118');

  await choose(page, 'idType', "U.S. driver's license");
  await page.locator('#root_photoId').setInputFiles('tests/fixtures/files/id-front.png');
  await page.locator('#root_photoIdBack').setInputFiles('tests/fixtures/files/id-back.png');
  await expect(page.getByText('id-front.png')).toBeVisible();

  await choose(page, 'employmentStatus', 'Employed');
  await page.locator('#root_employerName').fill('Acme Analytics LLC');
  await page.locator('#root_employerAddress_line1').fill('1 Market Street');
  await page.locator('#root_employerAddress_locality').fill('San Francisco');
  await page.locator('#root_employerAddress_region').selectOption('CA');
  await page.locator('#root_employerAddress_postalCode').fill('94105');
  await yesNo(page, 'isEmployedInRelatedIndustry', false);
  await yesNo(page, 'registeredWithCftcOrNfa', false);
  await choose(page, 'annualIncome', '$100,000 or over');
  await choose(page, 'approximateNetWorth', '$100,000 or over');
  await page.locator('#root_irsFormW2').setInputFiles('tests/fixtures/files/w2-sample.pdf');
  await page.locator('#root_typeOfTradingAccount-0').check();

  await yesNo(page, 'marriedStatus', true);
  await page.locator('#root_numberOfDependents').fill('2');
  for (const key of [
    'doesUnderstandFuturesTrading',
    'doesUnderstandRiskInFuturesTrading',
    'doesUnderstandRiskOfLosingMoreThanInvestment',
    'doesUnderstandMarginPolicy',
    'doesBelieveFuturesTradingIsAppropriate',
    'doesOwnDepositFunds',
  ]) {
    await yesNo(page, key, true);
  }
  await yesNo(page, 'futuresOptionsTradingExperience', true);
  await page.locator('#root_yearsOfExperience').fill('6');
  for (const key of [
    'previousFuturesAccounts',
    'isSharingFinancialInterest',
    'relationToNorthstarEmployee',
    'hasHistoryOfLegalDisputeWithFCM',
    'hasHistoryOfBankruptcy',
    'unsatisfiedDebts',
  ]) {
    await yesNo(page, key, false);
  }
  // Agreements are signed with the keyboard: focus the button, press Enter.
  const signButtons = page.getByRole('button', { name: 'Electronically Sign' });
  await expect(signButtons).toHaveCount(6);
  for (let i = 0; i < 6; i++) {
    await signButtons.first().focus();
    await page.keyboard.press('Enter');
  }
  await expect(page.getByRole('button', { name: 'Remove Signature' })).toHaveCount(6);
  await expect(page.getByRole('link', { name: prompt('agreeTermsOfService') })).toHaveAttribute(
    'href',
    '/assets/pdfs/terms-of-service.pdf',
  );

  await expect(submit).toBeEnabled({ timeout: 15_000 });
  await submit.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText(/received/i);
  // The remembered account type is cleared on success.
  expect(
    await page.evaluate(() => localStorage.getItem('clearing.registration.accountType')),
  ).toBeNull();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/clearing\/home$/);
  await expect(page.getByRole('heading', { name: 'Welcome Jane!' })).toBeVisible();
  await expect(page.getByText(/application has been received/i)).toBeVisible();
  // Drafts are gone after a successful submission.
  expect(await page.evaluate(() => localStorage.getItem('clearing.draft.individual'))).toBeNull();

  // Staff see the stored registration: every prompt beside its answer, documents attached.
  const staffContext = await browser.newContext();
  const staffPage = await staffContext.newPage();
  await staffPage.goto('/clearing/signin');
  await staffPage.getByLabel('Email').fill(staff.email);
  await staffPage.getByRole('textbox', { name: 'Password', exact: true }).fill(staff.password);
  await staffPage.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(staffPage).toHaveURL(/\/clearing\/admin/);
  await staffPage
    .getByRole('link', { name: /Jane Sample/ })
    .first()
    .click();
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
  await staffContext.close();
});

test('the individual form keeps no SSN in its draft and restores the other answers', async ({
  page,
}) => {
  const email = uniqueEmail('draft');
  await signUpAndSignIn(page, email);
  await page.goto('/clearing/registration/individual');
  await page.locator('#root_firstName').fill('Drafty');
  await page.locator('#root_socialSecurityNumber').pressSequentially('123456789');
  await page.locator('#root_lastName').click();
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('clearing.draft.individual')))
    .toContain('Drafty');
  const draft = await page.evaluate(() => localStorage.getItem('clearing.draft.individual'));
  expect(draft).not.toContain('123-45-6789');
  await page.reload();
  await expect(page.locator('#root_firstName')).toHaveValue('Drafty');
  await expect(page.locator('#root_socialSecurityNumber')).toHaveValue('');
});
