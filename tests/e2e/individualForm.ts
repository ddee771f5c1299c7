import { expect, type Page } from '@playwright/test';
import { bundledSchema, promptIn } from './formFiles';
import { signAgreements } from './esignConsent';
import { signIn, signUpAndVerify } from './support';

export const PASSWORD = 'Str0ng!Pass';

/** Prompts come from the schema files, as the form shows them ({firm} filled in). */
const schema = bundledSchema('individual');
export const prompt = (key: string) => promptIn(schema, schema, key);

export async function signUpAndSignIn(page: Page, email: string) {
  await signUpAndVerify(page, email, PASSWORD);
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/clearing\/registration$/);
}

export async function choose(page: Page, key: string, option: string) {
  await page.getByRole('combobox', { name: prompt(key) }).selectOption({ label: option });
}

export async function yesNo(page: Page, key: string, yes: boolean) {
  await page.locator(`#root_${key}-${yes ? 0 : 1}`).check();
}

/**
 * Answers every question of the individual form validly, with real files, and signs every
 * agreement with the keyboard. The page must show the form.
 */
export async function fillIndividualForm(
  page: Page,
  { consented = false }: { consented?: boolean } = {},
): Promise<void> {
  await page.locator('#root_socialSecurityNumber').fill('');
  await page.locator('#root_socialSecurityNumber').pressSequentially('123456789');
  await page.locator('#root_mailingAddress_postalCode').fill('');
  await page.locator('#root_firstName').fill('Jane');
  await page.locator('#root_lastName').fill('Sample');
  await page.locator('#root_dateOfBirth').pressSequentially('04171985');
  await page.locator('#root_primaryPhoneNumber').pressSequentially('+12125550142');

  await page.locator('#root_mailingAddress_line1').fill('350 Fifth Avenue');
  await page.locator('#root_mailingAddress_locality').fill('New York');
  await page.locator('#root_mailingAddress_region').selectOption('NY');
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
  // Agreements are signed with the keyboard; the first asks for the e-sign consent.
  await signAgreements(page, 6, { consented });
  await expect(page.getByRole('button', { name: 'Remove Signature' })).toHaveCount(6);
}

/** From the filled form to its review (the individual form's second step), where Submit is. */
export async function reviewIndividualForm(page: Page): Promise<void> {
  const review = page.getByRole('button', { name: 'Review your answers' });
  await expect(review).toBeEnabled({ timeout: 15_000 });
  await review.click();
  await expect(page.getByRole('heading', { name: 'Review', level: 2 })).toBeFocused();
}
