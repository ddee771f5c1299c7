import fs from 'node:fs';
import { type Locator, type Page } from '@playwright/test';
import { signUpAndSignIn } from './individualForm';
import { expect, expectNoSeriousA11yViolations, test, uniqueEmail } from './support';

/** Wording read from the schema files, as the forms show it. */
const phoneMessages = (
  JSON.parse(fs.readFileSync('schemas/common/phone.schema.json', 'utf8')) as {
    $defs: { phone: { 'x-phone': Record<string, string> } };
  }
).$defs.phone['x-phone'];
const businessUi = JSON.parse(fs.readFileSync('schemas/business/business.ui.json', 'utf8')) as {
  'ui:steps': { next: string }[];
  dba: { 'ui:options': { addLabel: string; itemLabel: string; removeLabel: string } };
};
const dbaOptions = businessUi.dba['ui:options'];
const suggestion = (number: string) => phoneMessages.suggestion!.replace('{number}', number);

/** Pastes `text` through the real clipboard (Control+V) into the empty input. */
async function pasteInto(page: Page, input: Locator, text: string) {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await input.fill('');
  await input.focus();
  await page.keyboard.press('Control+V');
}

/**
 * The input's floating label sits above its text, not over it: the label's bottom edge is at or
 * above the top of the input's content box (an unshrunk label is drawn inside that box).
 */
async function expectLabelAboveValue(page: Page, input: Locator) {
  const id = await input.getAttribute('id');
  const label = page.locator(`label[for="${id}"]`);
  await expect
    .poll(async () => {
      const labelBox = await label.evaluate((element) => element.getBoundingClientRect().bottom);
      const contentTop = await input.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top + parseFloat(getComputedStyle(element).paddingTop);
      });
      return labelBox <= contentTop;
    })
    .toBe(true);
}

async function openIndividualForm(page: Page) {
  await signUpAndSignIn(page, uniqueEmail('paste'));
  await page.goto('/clearing/registration/individual');
  await expect(page.locator('#root_firstName')).toBeVisible({ timeout: 30_000 });
}

async function openBusinessWizard(page: Page) {
  await signUpAndSignIn(page, uniqueEmail('paste-biz'));
  await page.getByLabel(/Business/).check();
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page.locator('#root_firstName')).toBeVisible({ timeout: 30_000 });
}

test.beforeEach(async ({ context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
});

test('a pasted SSN or phone number sits under its shrunk label, while focused and after', async ({
  page,
}) => {
  await openIndividualForm(page);
  for (const [selector, text] of [
    ['#root_socialSecurityNumber', '123-45-6789'],
    ['#root_primaryPhoneNumber', '+1 303 555 0123'],
  ] as const) {
    const input = page.locator(selector);
    await pasteInto(page, input, text);
    await expect(input).toHaveValue(text);
    await expectLabelAboveValue(page, input);
    await input.blur();
    await expectLabelAboveValue(page, input);
  }
  await page
    .locator('#root_socialSecurityNumber')
    .screenshot({ path: 'test-results/e2e/pasted-ssn.png' });
  await expectNoSeriousA11yViolations(page);
});

test('the business phone numbers too: the user step and Business Details', async ({ page }) => {
  test.setTimeout(120_000);
  await openBusinessWizard(page);
  const phone = page.locator('#root_phoneNumber');
  await pasteInto(page, phone, '+12125550187');
  await expect(phone).toHaveValue('+1 212 555 0187');
  await phone.blur();
  await expectLabelAboveValue(page, phone);

  await page.locator('#root_firstName').fill('Daniel');
  await page.locator('#root_lastName').fill('Okafor');
  await page.locator('#root_photoId').setInputFiles('tests/fixtures/files/id-front.png');
  await expect(page.getByText('id-front.png')).toBeVisible();
  const register = page.getByRole('button', { name: businessUi['ui:steps'][0]!.next });
  await expect(register).toBeEnabled({ timeout: 15_000 });
  await register.click();

  const bizPhone = page.locator('#root_bizPhone');
  await expect(bizPhone).toBeVisible();
  await pasteInto(page, bizPhone, '+1 303 555 0123');
  await expectLabelAboveValue(page, bizPhone);
  await bizPhone.blur();
  await expectLabelAboveValue(page, bizPhone);
  await expect(bizPhone).toHaveValue('+1 303 555 0123');
});

test("a phone number typed without '+' is read as a US number; one typed with a wrong '+' gets the fix", async ({
  page,
}) => {
  await openIndividualForm(page);
  // Issue 38 §1: typed the usual US way, with no address yet, it is the US number, not +30….
  const phone = page.locator('#root_primaryPhoneNumber');
  await phone.pressSequentially('3035550123');
  await expect(phone).toHaveValue('(303) 555-0123');
  await phone.blur();
  await expect(phone).toHaveValue('+1 303 555 0123');
  await expect(page.getByText(phoneMessages.notPossible!)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Did you mean/ })).toHaveCount(0);

  // Typed with a '+' it says its country; when no such number exists the US one is offered.
  const secondary = page.locator('#root_secondaryPhoneNumber');
  await secondary.pressSequentially('+3035550123');
  await secondary.blur();
  const fix = page.getByRole('button', { name: suggestion('+1 303 555 0123') });
  await expect(fix).toBeVisible();
  await page
    .locator('.rjsf-field')
    .filter({ has: secondary })
    .last()
    .screenshot({ path: 'test-results/e2e/phone-suggestion.png' });
  await fix.click();
  await expect(secondary).toHaveValue('+1 303 555 0123');
  await expect(secondary).toBeFocused();
  await expect(fix).toHaveCount(0);

  // A paste without '+' is read at once, the same way.
  await pasteInto(page, secondary, '303-555-0123');
  await secondary.blur();
  await expect(secondary).toHaveValue('+1 303 555 0123');
  await expect(page.getByRole('button', { name: /Did you mean/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});

test('spaces around a pasted or typed answer are dropped; a US postal code pasted with them is fine', async ({
  page,
}) => {
  await openIndividualForm(page);
  const postalCode = page.locator('#root_mailingAddress_postalCode');
  await pasteInto(page, postalCode, ' 10118 ');
  await expect(postalCode).toHaveValue('10118');
  await postalCode.blur();
  await expect(page.getByText('Postal code can only contain numbers.')).toHaveCount(0);
  await expect(postalCode).not.toHaveAttribute('aria-invalid', 'true');

  const firstName = page.locator('#root_firstName');
  await firstName.pressSequentially('  Jane ');
  await firstName.blur();
  await expect(firstName).toHaveValue('Jane');
});

test('each DBA name and its remove button are named for screen readers by the uiSchema', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openBusinessWizard(page);
  await page.locator('#root_firstName').fill('Daniel');
  await page.locator('#root_lastName').fill('Okafor');
  await page.locator('#root_phoneNumber').pressSequentially('+12125550187');
  await page.locator('#root_photoId').setInputFiles('tests/fixtures/files/id-front.png');
  await expect(page.getByText('id-front.png')).toBeVisible();
  const register = page.getByRole('button', { name: businessUi['ui:steps'][0]!.next });
  await expect(register).toBeEnabled({ timeout: 15_000 });
  await register.click();

  const add = page.getByRole('button', { name: dbaOptions.addLabel });
  await add.click();
  await add.click();
  const name = (n: number) => dbaOptions.itemLabel.replace('{n}', String(n));
  const remove = (n: number) => dbaOptions.removeLabel.replace('{n}', String(n));
  await page.getByRole('textbox', { name: name(1), exact: true }).fill('Granite Ridge');
  await page.getByRole('textbox', { name: name(2), exact: true }).fill('GRM');
  await expect(page.getByRole('button', { name: remove(1), exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: remove(2), exact: true })).toBeVisible();
  await page
    .getByRole('group', { name: /Doing business as/ })
    .screenshot({ path: 'test-results/e2e/dba-rows.png' });
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: remove(1), exact: true }).click();
  await expect(page.getByRole('textbox', { name: name(1), exact: true })).toHaveValue('GRM');
  await expect(page.getByRole('button', { name: remove(2), exact: true })).toHaveCount(0);
});
