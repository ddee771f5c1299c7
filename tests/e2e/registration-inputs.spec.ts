import fs from 'node:fs';
import { type Page } from '@playwright/test';
import sharp from 'sharp';
import { prompt, signUpAndSignIn } from './individualForm';
import { expect, expectNoSeriousA11yViolations, test, uniqueEmail } from './support';

/** Messages read from the schema files, as the form shows them. */
const common = (name: string) =>
  JSON.parse(fs.readFileSync(`schemas/common/${name}.schema.json`, 'utf8')) as {
    $defs: Record<string, Record<string, Record<string, string>>>;
  };
const dateMessages = common('date').$defs.dateOfBirth!['x-date']!;
const phoneMessages = common('phone').$defs.phone!['x-phone']!;
// The type rule applies once the file is not empty (an empty file gets 'The file is empty').
const pdfMessage = (
  common('file').$defs.pdfFile as unknown as {
    then: { properties: { type: { errorMessage: string } } };
  }
).then.properties.type.errorMessage;

/** The message beside a field (the error summary beside the form repeats it as a link). */
function fieldError(page: Page, key: string) {
  return page.locator(`[id^="root_${key}__error"]`).first();
}

async function pasteInto(page: Page, selector: string, text: string) {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  const input = page.locator(selector);
  await input.fill('');
  await input.focus();
  await page.keyboard.press('ControlOrMeta+V');
}

test.beforeEach(async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUpAndSignIn(page, uniqueEmail('inputs'));
  await page.goto('/clearing/registration/individual');
  // The form's chunk loads lazily; a busy machine can take a while.
  await expect(page.locator('#root_firstName')).toBeVisible({ timeout: 30_000 });
});

test('the form is about 800 px wide, short answers get short inputs', async ({ page }) => {
  const width = (selector: string) =>
    page.locator(selector).evaluate((element) => element.getBoundingClientRect().width);
  const form = await page.locator('form').evaluate((element) => element.getBoundingClientRect());
  expect(form.width).toBeGreaterThan(760);
  expect(form.width).toBeLessThanOrEqual(800);
  expect(await width('#root_firstName')).toBeGreaterThan(700);
  for (const short of [
    '#root_dateOfBirth',
    '#root_socialSecurityNumber',
    '#root_mailingAddress_postalCode',
  ]) {
    expect(await width(short)).toBeLessThan(300);
  }
  await page.screenshot({ path: 'test-results/e2e/individual-form-layout.png' });
  await expectNoSeriousA11yViolations(page);
});

test('SSN, date and phone take what a real applicant types and pastes', async ({ page }) => {
  // Any paste holding nine digits is the SSN, whatever surrounds them.
  for (const text of [' 987 65 4321 ', 'SSN: 987-65-4321']) {
    await pasteInto(page, '#root_socialSecurityNumber', text);
    await expect(page.locator('#root_socialSecurityNumber')).toHaveValue('987-65-4321');
  }

  // An ISO date, typed or pasted, becomes MM/DD/YYYY.
  const dob = page.locator('#root_dateOfBirth');
  await dob.pressSequentially('1988-04-15');
  await expect(dob).toHaveValue('04/15/1988');
  await pasteInto(page, '#root_dateOfBirth', '1988-04-15');
  await expect(dob).toHaveValue('04/15/1988');
  // A date that does not exist, and an applicant under 18, each get their own message.
  await dob.fill('');
  await dob.pressSequentially('02301988');
  await dob.blur();
  await expect(fieldError(page, 'dateOfBirth')).toHaveText(dateMessages.notADate!);
  await expect(page.getByText(dateMessages.format!)).toHaveCount(0);
  await dob.fill('');
  await dob.pressSequentially(`0101${new Date().getFullYear() - 12}`);
  await dob.blur();
  await expect(fieldError(page, 'dateOfBirth')).toHaveText(dateMessages.minor!);

  // A US number typed without '+' is read as a US number (issue 38 §1); one that is no number
  // of any reading is refused with the spec's message.
  const phone = page.locator('#root_primaryPhoneNumber');
  await phone.pressSequentially('555-0100');
  await phone.blur();
  await expect(fieldError(page, 'primaryPhoneNumber')).toHaveText(phoneMessages.notPossible!);
  await phone.fill('');
  await phone.pressSequentially('2125550142');
  await phone.blur();
  await expect(phone).toHaveValue('+1 212 555 0142');
  await expect(page.getByText(phoneMessages.notPossible!)).toHaveCount(0);
  // Typed with a '+', +212 is no number: the rule says so and the US number is offered.
  await pasteInto(page, '#root_secondaryPhoneNumber', '+(212) 555-0142');
  await page.locator('#root_secondaryPhoneNumber').blur();
  const fix = page.getByRole('button', {
    name: phoneMessages.suggestion!.replace('{number}', '+1 212 555 0142'),
  });
  await expect(fix).toBeVisible();
  await fix.click();
  await expect(page.locator('#root_secondaryPhoneNumber')).toHaveValue('+1 212 555 0142');
  await expect(page.locator('#root_secondaryPhoneNumber')).toBeFocused();
  await expectNoSeriousA11yViolations(page);
});

test('a "PDF" that is not one is refused beside the field at once', async ({ page }) => {
  const png = fs.readFileSync('tests/fixtures/files/id-front.png');
  await page.locator('#root_irsFormW2').setInputFiles({
    name: 'w2.pdf',
    mimeType: 'application/pdf',
    buffer: png,
  });
  await expect(fieldError(page, 'irsFormW2')).toHaveText(pdfMessage);
  // Removing the file keeps focus on the field, not the page.
  await page.getByRole('button', { name: 'Remove w2.pdf' }).click();
  await expect(page.locator('#root_irsFormW2-choose')).toBeFocused();
  await page.locator('#root_irsFormW2').setInputFiles('tests/fixtures/files/w2-sample.pdf');
  await expect(page.getByText('w2-sample.pdf')).toBeVisible();
  await expect(page.getByText(pdfMessage)).toHaveCount(0);
});

test('keyboard users get a skip link, named radio groups and a visible focus ring', async ({
  page,
}) => {
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();

  await expect(
    page.getByRole('radiogroup', { name: prompt('typeOfTradingAccount') }),
  ).toBeVisible();

  // WCAG 2.2 focus appearance: a solid ring of at least 2 px around the focused control.
  await page.locator('#root_irsFormW2-choose').focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const ring = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement!);
    return { width: parseFloat(style.outlineWidth), style: style.outlineStyle };
  });
  expect(ring.style).toBe('solid');
  expect(ring.width).toBeGreaterThanOrEqual(2);

  // The ring of a text field does not run through its floating label (issue 38 §4): not one
  // pixel of the label's box is the ring's blue.
  const firstName = page.locator('#root_firstName');
  await firstName.fill('Ada');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(firstName).toBeFocused();
  const label = page.locator('label[for="root_firstName"]');
  const { data, info } = await sharp(await label.screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  let ringPixels = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (Math.abs(r - 0x1d) + Math.abs(g - 0x5f) + Math.abs(b - 0xd1) < 40) ringPixels++;
  }
  expect(ringPixels, 'pixels of the focus ring inside the label').toBe(0);
});
