import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { deref } from '../../src/shared/forms/walk/schemaWalk';
import { bundledSchema, promptIn } from './formFiles';
import { prompt, signUpAndSignIn } from './individualForm';
import { expect, expectNoSeriousA11yViolations, test, uniqueEmail } from './support';

/**
 * The questions the registration pages ask before something is lost (issue 19 §3, §5, §8), each
 * opened in Chromium as a user opens it: focus moves into the question, its buttons are named,
 * it names what would be lost, Escape answers it with the safe choice and focus goes back to
 * where the user was, and axe finds nothing serious in it.
 */

interface Step {
  title: string;
  next: string;
}
const businessUi = JSON.parse(fs.readFileSync('schemas/business/business.ui.json', 'utf8')) as {
  'ui:steps': Step[];
  affiliatedPersons: { 'ui:options': { addLabel: string } };
};
/** The dialog draws the affiliated-person form: its prompts, read from the schema files. */
const personForm = bundledSchema('affiliated-person');
const personPrompt = (key: string) => promptIn(personForm, deref(personForm, personForm), key);

/** Focus is on an element inside `container`. */
async function expectFocusInside(container: Locator) {
  await expect
    .poll(() => container.evaluate((element) => element.contains(document.activeElement)))
    .toBe(true);
}

async function openIndividualForm(page: Page) {
  await signUpAndSignIn(page, uniqueEmail('confirm'));
  await page.goto('/clearing/registration/individual');
  await expect(page.locator('#root_firstName')).toBeVisible({ timeout: 30_000 });
}

test('Reset Form asks first: focus inside, named buttons, what it clears; Escape keeps the answers and returns to Reset Form', async ({
  page,
}) => {
  await openIndividualForm(page);
  await page.locator('#root_firstName').fill('Jane');
  await page.locator('#root_lastName').focus();

  const reset = page.getByRole('button', { name: 'Reset Form', exact: true });
  await reset.click();
  const ask = page.getByRole('dialog', { name: 'Reset the form?' });
  await expect(ask).toBeVisible();
  await expectFocusInside(ask);
  await expect(ask.getByRole('button', { name: 'Keep my answers' })).toBeVisible();
  await expect(ask.getByRole('button', { name: 'Reset Form' })).toBeVisible();
  await expect(ask.getByRole('listitem')).toHaveText(['Your answers in About you']);
  await expectNoSeriousA11yViolations(page);

  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(reset).toBeFocused();
  await expect(page.locator('#root_firstName')).toHaveValue('Jane');

  // Keep my answers does the same; Reset Form then clears.
  await reset.click();
  await ask.getByRole('button', { name: 'Keep my answers' }).click();
  await expect(reset).toBeFocused();
  await expect(page.locator('#root_firstName')).toHaveValue('Jane');
  await reset.click();
  await ask.getByRole('button', { name: 'Reset Form' }).click();
  await expect(page.locator('#root_firstName')).toHaveValue('');

  // The business wizard's first step, whose email is prefilled: a first name typed key by key
  // and Reset pressed at once asks too (issue 38 §6).
  await page.goto('/clearing/registration/business');
  const firstName = page.locator('#root_firstName');
  await expect(firstName).toBeVisible({ timeout: 30_000 });
  await firstName.pressSequentially('Daniel');
  await reset.click();
  await expect(ask.getByRole('listitem')).toHaveText([/^Your answers in /]);
  await ask.getByRole('button', { name: 'Keep my answers' }).click();
  await expect(firstName).toHaveValue('Daniel');
});

test('Leave this page? asks only while the server cannot take the answers, names only what would be lost; Escape and Stay keep the page and return focus to the link', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openIndividualForm(page);
  // The server takes no save: what this device cannot keep would be lost by leaving.
  const saves = /\/applications\/individual$/;
  await page.route(saves, (route) =>
    route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.fallback(),
  );
  await page.locator('#root_firstName').fill('Jane');
  await page.locator('#root_socialSecurityNumber').pressSequentially('536221234');
  await page.locator('#root_lastName').focus();

  const link = page.getByRole('link', { name: 'Regulatory Disclosures', exact: true });
  await link.click();
  const leave = page.getByRole('dialog', { name: 'Leave this page?' });
  await expect(leave).toBeVisible();
  await expectFocusInside(leave);
  await expect(leave.getByRole('button', { name: 'Stay on this page' })).toBeVisible();
  await expect(leave.getByRole('button', { name: 'Leave' })).toBeVisible();
  // The SSN is never kept on this device; the first name is (the draft), so it is not named.
  await expect(leave.getByRole('listitem')).toHaveText([prompt('socialSecurityNumber')]);
  await expectNoSeriousA11yViolations(page);

  await page.keyboard.press('Escape');
  await expect(leave).toHaveCount(0);
  await expect(page).toHaveURL(/\/clearing\/registration\/individual$/);
  await expect(link).toBeFocused();
  await expect(page.locator('#root_socialSecurityNumber')).toHaveValue('536-22-1234');

  await link.click();
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(leave).toHaveCount(0);
  await expect(link).toBeFocused();
  await link.click();
  await leave.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/clearing\/regulation\/disclosures/);

  // The tab is closed while the server is still unreachable: a save the page kept retrying can
  // no longer land later, in the middle of the next visit (it did once on a slow machine: its
  // SSN arrived while the next visit typed another).
  await page.goto('about:blank');
  // Back later, with the server reachable: a changed SSN is saved before a link leaves, and the
  // link leaves without asking.
  await page.unroute(saves);
  await page.goto('/clearing/registration/individual');
  await expect(page.locator('#root_firstName')).toHaveValue('Jane');
  await page.locator('#root_socialSecurityNumber').fill('');
  await page.locator('#root_socialSecurityNumber').pressSequentially('536229876');
  await page.locator('#root_lastName').focus();
  await link.click();
  await expect(page).toHaveURL(/\/clearing\/regulation\/disclosures/);
  await expect(leave).toHaveCount(0);
  await page.goto('/clearing/registration/individual');
  await expect(page.locator('#root_socialSecurityNumber')).toHaveValue('536-22-9876');
});

test('the affiliated-person dialog asks before Escape discards typed answers, naming them; Escape on the question keeps editing', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const [userStep, businessStep] = businessUi['ui:steps'] as [Step, Step];
  await signUpAndSignIn(page, uniqueEmail('confirm-biz'));
  await page.getByLabel(/Business/).check();
  await page.getByRole('button', { name: 'Get Started' }).click();
  await page.locator('#root_firstName').fill('Daniel');
  await page.locator('#root_lastName').fill('Okafor');
  await page.locator('#root_phoneNumber').pressSequentially('+12125550187');
  await page.locator('#root_photoId').setInputFiles('tests/fixtures/files/id-front.png');
  await expect(page.getByText('id-front.png')).toBeVisible();
  const register = page.getByRole('button', { name: userStep.next });
  await expect(register).toBeEnabled({ timeout: 15_000 });
  await register.click();
  await expect(page.getByRole('heading', { name: businessStep.title, exact: true })).toBeFocused();

  const add = page.getByRole('button', {
    name: businessUi.affiliatedPersons['ui:options'].addLabel,
  });
  await add.click();
  const dialog = page.getByRole('dialog');
  const person = (key: string) => dialog.locator(`#root_affiliatedPersons_0_${key}`);
  await expect(person('firstName')).toBeFocused();
  await person('firstName').fill('Amara');
  await person('lastName').fill('Nwosu');
  await page.keyboard.press('Escape');

  const ask = dialog.getByRole('group', { name: /^Discard your answers\?/ });
  await expect(ask).toBeVisible();
  await expect(ask).toContainText(`${personPrompt('firstName')}, ${personPrompt('lastName')}`);
  await expect(ask.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await expect(ask.getByRole('button', { name: 'Discard' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Escape on the question is the safe answer: back to the field that had focus, answers kept.
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(person('lastName')).toBeFocused();
  await expect(person('firstName')).toHaveValue('Amara');

  // Enter on Keep editing (it has focus) returns to the dialog as it was: nothing saved, no
  // errors (issue 38 §4: the keystroke went on to submit the person).
  await page.keyboard.press('Escape');
  await expect(ask.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ask).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await expect(person('lastName')).toBeFocused();
  await expect(person('firstName')).toHaveValue('Amara');
  await expect(dialog.locator('.Mui-error')).toHaveCount(0);

  // Discard closes the dialog and focus returns to the button that opened it; no row was added.
  await page.keyboard.press('Escape');
  await ask.getByRole('button', { name: 'Discard' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(add).toBeFocused();
  await expect(page.getByRole('row').filter({ hasText: 'Amara Nwosu' })).toHaveCount(0);
});
