import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { firm } from '../../src/shared/config/firm';
import { signUpAndSignIn } from './individualForm';
import { expectNoSeriousA11yViolations, uniqueEmail } from './support';

interface Step {
  id: string;
  title: string;
  next: string;
  signaturePrompt: string;
  sections: { title?: string; fields: string[] }[];
}
interface SchemaNode {
  title?: string;
  properties?: Record<string, SchemaNode>;
  allOf?: { then?: SchemaNode }[];
}
/** Steps, prompts and messages come from the schema files, as the wizard shows them. */
const ui = JSON.parse(fs.readFileSync('schemas/business/business.ui.json', 'utf8')) as {
  'ui:steps': Step[];
};
const schema = JSON.parse(
  fs.readFileSync('schemas/business/business.schema.json', 'utf8'),
) as SchemaNode;
const steps = ui['ui:steps'];
const [userStep, businessStep, confirmStep] = steps as [Step, Step, Step];
const prompt = (node: SchemaNode, key: string) => {
  const title = [
    node.properties?.[key],
    ...(node.allOf ?? []).map((p) => p.then?.properties?.[key]),
  ].find((p) => p?.title)?.title;
  if (!title) throw new Error(`no prompt for ${key}`);
  return title.replaceAll('{firm}', firm.displayName);
};

async function openWizard(page: Page, email: string) {
  await signUpAndSignIn(page, email);
  await page.getByLabel(/Business/).check();
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/clearing\/registration\/business$/);
}

async function fillUserStep(page: Page) {
  await page.locator('#root_firstName').fill('Daniel');
  await page.locator('#root_lastName').fill('Okafor');
  await page.locator('#root_phoneNumber').pressSequentially('12125550187');
  await page.locator('#root_photoId').setInputFiles('tests/fixtures/files/id-front.png');
  await expect(page.getByText('id-front.png')).toBeVisible();
}

/**
 * Answers every question of Business Details validly. The affiliated person is added through
 * the list field the uiSchema names (rjsf's stock list until the dialog list lands: only this
 * helper changes then).
 */
async function fillBusinessStep(page: Page) {
  await page.locator('#root_bizName').fill('Granite Ridge Mining Co.');
  await page.locator('#root_bizAddress').fill('1700 Broadway, Suite 400, Denver, CO 80290');
  await page.locator('#root_lei').fill('5493001KJTIIGC8Y1R12');
  await page.locator('#root_bizEmail').fill('compliance@graniteridge.example');
  await page.locator('#root_bizPhone').pressSequentially('13035550123');
  await page.locator('#root_website').fill('https://graniteridge.example');
  await page.locator('#root_certificateOfInc').setInputFiles('tests/fixtures/files/w2-sample.pdf');
  await page.locator('#root_w8orw9').setInputFiles('tests/fixtures/files/w2-sample.pdf');
  // The list starts with one person (it needs at least one).
  if (!(await page.locator('#root_affiliatedPersons_0_firstName').isVisible())) {
    await page.locator('#root_affiliatedPersons__add').click();
  }
  const person = (key: string) => page.locator(`#root_affiliatedPersons_0_${key}`);
  await person('firstName').fill('Daniel');
  await person('lastName').fill('Okafor');
  await person('title').fill('Chief Executive Officer');
  await person('dob').fill('02/03/1975');
  await person('addressLine1').fill('45 Cherry Creek Drive');
  await person('addressLocality').fill('Denver');
  await person('addressRegion').fill('CO');
  await person('addressPostalCode').fill('80209');
  await person('ssn').fill('123-45-6789');
  await person('ssn').blur();
  await page.locator('#root_disclosures-0').check();
  await page.locator('#root_tradingIntentions').selectOption({ label: 'Hedging mining output' });
  await page.locator('#root_tradingExperience').fill('8');
  await page
    .locator('#root_corporateGuarantee')
    .setInputFiles('tests/fixtures/files/w2-sample.pdf');
  await page
    .locator('#root_bylawsOrLLCAgreement')
    .setInputFiles('tests/fixtures/files/w2-sample.pdf');
  await page.locator('#root_signerAuthorization-0').check();
  // Agreements are signed with the keyboard: focus the button, press Enter.
  const signButtons = page.getByRole('button', { name: 'Electronically Sign' });
  await expect(signButtons).toHaveCount(4);
  for (let i = 0; i < 4; i++) {
    await signButtons.first().focus();
    await page.keyboard.press('Enter');
  }
  await expect(page.getByRole('button', { name: 'Remove Signature' })).toHaveCount(4);
}

test('the business wizard: three steps from the uiSchema, Back keeps answers, a reload restores the draft without files, conditions clear and disable, the review shows prompts and answers with Edit', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('business');
  await openWizard(page, email);

  // The stepper and step 1 as the uiSchema names them.
  const stepper = page.getByRole('list').filter({ hasText: userStep.title }).first();
  for (const step of steps) await expect(page.getByText(step.title).first()).toBeVisible();
  await expect(stepper).toBeDefined();
  await expect(page.getByRole('alert').filter({ hasText: userStep.signaturePrompt })).toBeVisible();
  await expect(page.locator('#root_email')).toHaveValue(email);
  await expect(page.locator('#root_email')).toHaveAttribute('readonly', '');
  const register = page.getByRole('button', { name: userStep.next });
  await expect(register).toBeDisabled();
  await expectNoSeriousA11yViolations(page);

  // Beside the grey button: how many answers are missing, and a way to the first one.
  await expect(page.getByText('4 answers are still needed.')).toBeVisible();
  await page.getByRole('button', { name: 'Go to the first' }).click();
  await expect(page.locator('#root_firstName')).toBeFocused();
  await expect(page.locator('#root_firstName__error-0')).toHaveText('Must provide first name');
  await expect(page.getByText('Must provide last name')).toHaveCount(0);

  await fillUserStep(page);
  await expect(register).toBeEnabled({ timeout: 15_000 });
  await register.click();

  // Step 2: the nineteen sections in the spec's order, its own prompt and next label.
  await expect(page.getByRole('heading', { name: businessStep.title, exact: true })).toBeVisible();
  await expect(
    page.getByRole('alert').filter({ hasText: businessStep.signaturePrompt }),
  ).toBeVisible();
  const sectionTitles = businessStep.sections.map((s) => s.title!);
  expect(sectionTitles).toHaveLength(19);
  await expect(page.locator('form section > h2')).toHaveText(sectionTitles);
  await expect(page.getByRole('button', { name: businessStep.next })).toBeDisabled();

  // The NFA 1101 explanation is cleared and disabled while its answer is false.
  const explain = page.locator('#root_nfaBylaw1101_notCftcOrNfaMemberExplain');
  await expect(explain).toBeDisabled();
  await page.locator('#root_nfaBylaw1101_notCftcOrNfaMember').check();
  await expect(explain).toBeEnabled();
  await explain.fill('The entity trades only for its own account.');
  await explain.blur();
  await page.locator('#root_nfaBylaw1101_notCftcOrNfaMember').uncheck();
  await expect(explain).toBeDisabled();
  await expect(explain).toHaveValue('');
  await page.locator('#root_nfaBylaw1101_notCftcOrNfaMember').check();
  await expect(explain).toBeEnabled();
  await expect(explain).toHaveValue('');
  await page.locator('#root_nfaBylaw1101_notCftcOrNfaMember').uncheck();

  // The non-US address is enabled only when its flag is set.
  const nonUs = page.locator('#root_nonUsBizAddress');
  await expect(nonUs).toBeDisabled();
  await page.locator('#root_isNonUsBizAddressRequired').check();
  await expect(nonUs).toBeEnabled();
  await nonUs.fill('Level 5, 1 Martin Place, Sydney NSW 2000, Australia');

  // The signer form appears only for 'no' (the default).
  await expect(page.locator('#root_authorizationForm-choose')).toBeVisible();
  await page.getByRole('radio', { name: 'Yes' }).last().check();
  await expect(page.locator('#root_authorizationForm-choose')).toHaveCount(0);

  // The error summary lists the shown errors; each entry moves to its field.
  await page.locator('#root_bizName').focus();
  await page.locator('#root_bizName').blur();
  const summary = page
    .getByRole('alert')
    .filter({ hasText: 'Please correct the following errors:' });
  await expect(summary).toBeVisible();
  await summary.getByRole('link', { name: 'Must provide business legal name' }).click();
  await expect(page.locator('#root_bizName')).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await page.locator('#root_bizName').fill('Granite Ridge Mining Co.');
  await page.locator('#root_website').fill('https://graniteridge.example');
  await page.locator('#root_website').blur();
  await expect(summary).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // Back keeps the answers and the chosen file.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: userStep.title, exact: true })).toBeVisible();
  await expect(page.locator('#root_firstName')).toHaveValue('Daniel');
  await expect(page.getByText('id-front.png')).toBeVisible();
  await page.getByRole('button', { name: userStep.next }).click();
  await expect(page.locator('#root_bizName')).toHaveValue('Granite Ridge Mining Co.');
  await expect(nonUs).toHaveValue('Level 5, 1 Martin Place, Sydney NSW 2000, Australia');

  // Leaving with a file chosen asks first; a reload restores the draft without the file.
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  });
  await page.reload();
  expect(asked).toEqual(['beforeunload']);
  await expect(page.getByRole('heading', { name: userStep.title, exact: true })).toBeVisible();
  await expect(page.locator('#root_firstName')).toHaveValue('Daniel');
  await expect(page.locator('#root_email')).toHaveValue(email);
  await expect(page.getByText('id-front.png')).toHaveCount(0);
  const restored = page.getByRole('alert').filter({ hasText: 'Your saved answers were restored' });
  await expect(restored).toContainText(prompt(schema, 'photoId'));
  const draft = await page.evaluate(() => localStorage.getItem('clearing.draft.business'));
  expect(draft).toContain('Granite Ridge Mining Co.');
  expect(draft).not.toContain('id-front.png');
  expect(draft).not.toContain('notCftcOrNfaMemberExplain');

  // The review: the same prompts and the answers as text, by section, Edit back to the step.
  await page.locator('#root_photoId').setInputFiles('tests/fixtures/files/id-front.png');
  await page.getByRole('button', { name: userStep.next }).click();
  await fillBusinessStep(page);
  const registerBusiness = page.getByRole('button', { name: businessStep.next });
  await expect(registerBusiness).toBeEnabled({ timeout: 15_000 });
  await registerBusiness.click();
  await expect(page.getByRole('heading', { name: confirmStep.title, exact: true })).toBeVisible();
  await expect(
    page.getByRole('alert').filter({ hasText: confirmStep.signaturePrompt }),
  ).toBeVisible();
  const answerOf = (question: string) =>
    page.locator('dt', { hasText: question }).first().locator('xpath=following-sibling::dd[1]');
  await expect(answerOf(prompt(schema, 'email'))).toHaveText(email);
  await expect(answerOf(prompt(schema, 'bizName'))).toHaveText('Granite Ridge Mining Co.');
  await expect(answerOf(prompt(schema, 'photoId'))).toHaveText('id-front.png');
  await expect(answerOf(prompt(schema, 'tradingIntentions'))).toHaveText('Hedging mining output');
  await expect(answerOf(prompt(schema, 'agreeTermsOfService'))).toHaveText('Signed');
  // An SSN shows its last four digits only.
  await expect(page.getByText('•••••••6789')).toBeVisible();
  // The hidden NFA explanation and the signer form (answered 'yes') are not in the review.
  await expect(page.locator('dt', { hasText: 'Authorized signer form' })).toHaveCount(0);
  await expect(
    page.getByText(
      'There are errors in the form. Please ensure all fields are completed correctly.',
    ),
  ).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: `Edit Website (${businessStep.title})` }).click();
  await expect(page.getByRole('heading', { name: businessStep.title, exact: true })).toBeVisible();
  await expect(page.locator('#root_website')).toHaveValue('https://graniteridge.example');
  await page.getByRole('button', { name: businessStep.next }).click();
  await expect(page.getByRole('button', { name: confirmStep.next })).toBeEnabled();

  // A header link asks before the uploads and signatures are lost; staying keeps everything.
  await page.getByRole('link', { name: 'Regulatory Disclosures', exact: true }).click();
  const leave = page.getByRole('dialog', { name: 'Leave this page?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page).toHaveURL(/\/clearing\/registration\/business$/);
  await expect(answerOf(prompt(schema, 'photoId'))).toHaveText('id-front.png');
});

/**
 * Needs the server's business registration route (POST /exchange/api/web/registration/business,
 * another branch): until it is merged the submission is refused and this test fails at the modal.
 */
test('the wizard submits with the keyboard: Submission Successful, Okay clears the drafts and lands on home, pending review', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('business.submit');
  await openWizard(page, email);
  await fillUserStep(page);
  await page.getByRole('button', { name: userStep.next }).click();
  await fillBusinessStep(page);
  // From the last answer to the review and the submission, the keyboard alone.
  const registerBusiness = page.getByRole('button', { name: businessStep.next });
  await expect(registerBusiness).toBeEnabled({ timeout: 15_000 });
  await registerBusiness.focus();
  await page.keyboard.press('Enter');
  const submit = page.getByRole('button', { name: confirmStep.next });
  await expect(submit).toBeEnabled();
  await submit.focus();
  await page.keyboard.press('Enter');
  const modal = page.getByRole('dialog', { name: 'Submission Successful' });
  await expect(modal).toBeVisible({ timeout: 30_000 });
  await expect(modal).toContainText(
    "Your submission has been received. You'll hear back from the provider with next steps.",
  );
  await modal.getByRole('button', { name: 'Okay' }).click();
  await expect(page).toHaveURL(/\/clearing\/home$/);
  await expect(page.getByText(/application has been received/i)).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('clearing.draft.business'))).toBeNull();
});
