import { type Page } from '@playwright/test';
import { DEMO_SIGN_INS } from '../../src/server/seed/demoSignIns';
import { deref } from '../../src/shared/forms/walk/schemaWalk';
import { bundledSchema, promptIn } from './formFiles';
import {
  expect,
  expectNoSeriousA11yViolations,
  linkFromOutbox,
  signIn,
  test,
  uniqueEmail,
} from './support';

const PASSWORD = 'Inv1te!Pass';
const ACCEPTED_MESSAGE = 'Invitation accepted. Please sign in to continue.';
const [approved] = DEMO_SIGN_INS;

/** The page draws the person form: its prompts and messages, read from the schema files. */
const person = bundledSchema('person');
const prompt = (key: string) => promptIn(person, person, key);
const required = (person.errorMessage as { required: Record<string, string> }).required;
const rule = (key: string, keyword: 'x-name' | 'x-phone', reason: string) =>
  (deref(person.properties![key]!, person)[keyword] as Record<string, string>)[reason]!;
/** The photo ID's type message (the type rule sits under an `if` on the size). */
const photoSchema = deref(person.properties!.photoId!, person);
const fileRule = String(
  photoSchema.then?.properties?.type?.errorMessage ?? photoSchema.properties?.type?.errorMessage,
);

/** The double-submit CSRF token the server set for this browser context. */
async function csrfToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'csrf_token');
  expect(cookie, 'csrf_token cookie').toBeDefined();
  return cookie!.value;
}

test.describe('invitation', () => {
  test('a link without its parameters shows the invalid-URL message', async ({ page }) => {
    await page.goto('/clearing/user/accept-invite?access_token=abc');
    await expect(page.getByRole('alert')).toContainText(
      'Invalid URL. Reach out to an admin to get a new invitation url.',
    );
    await expectNoSeriousA11yViolations(page);
  });

  test('an Administrator invites a Trader, who accepts on the person form (refusing what the registration refuses) and signs in', async ({
    page,
  }) => {
    const invitee = uniqueEmail('invitee');

    // The approved demo customer is the Administrator of an organisation with details.
    await signIn(page, approved.email, approved.password);
    await expect(page).toHaveURL(/\/clearing\/home$/);
    const invited = await page.request.post('/exchange/api/web/user/settings', {
      headers: { 'x-csrf-token': await csrfToken(page) },
      multipart: { tag: 'invite_user', email: invitee, role: 'Trader' },
    });
    expect(invited.ok(), await invited.text()).toBe(true);
    const link = await linkFromOutbox(invitee, '/clearing/user/accept-invite');
    expect(link).toMatch(/[?&]access_token=/);
    expect(link).toMatch(/[?&]organization_id=/);
    expect(link).toMatch(/[?&]email=/);

    // The invitee opens the link in a signed-out browser. Home is left first: signed out under
    // it, its next request's 401 sends it to the sign-in, which aborted the link's navigation.
    await page.goto('about:blank');
    await page.context().clearCookies();
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Accept Invitation' })).toBeVisible();
    await expect(page.locator('[data-variant="dark"]').first()).toBeVisible();
    const email = page.getByRole('textbox', { name: 'Email' });
    await expect(email).toHaveValue(invitee);
    await expect(email).toHaveAttribute('readonly', '');
    await expectNoSeriousA11yViolations(page);

    // Every field message on an empty submit.
    await page.getByRole('button', { name: 'Accept Invitation' }).click();
    for (const message of [
      required.firstName!,
      required.lastName!,
      required.phoneNumber!,
      required.photoId!,
      'Enter password',
      'Confirm password',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await expectNoSeriousA11yViolations(page);

    // What the registration refuses, refused here with the registration's messages.
    const firstName = page.getByRole('textbox', { name: prompt('firstName') });
    await firstName.fill('<script>alert(1)</script>');
    await firstName.blur();
    await expect(page.getByText(rule('firstName', 'x-name', 'invalidCharacters'))).toBeVisible();
    const phone = page.getByRole('textbox', { name: prompt('phoneNumber') });
    // The phone widget puts a missing '+' in itself; a number too short is refused by the rule.
    await phone.fill('+1');
    await phone.blur();
    await expect(page.getByText(rule('phoneNumber', 'x-phone', 'tooShort'))).toBeVisible();
    // A file that is no image (its first bytes say so), named as an ID photo.
    const photo = page.locator('input[type="file"]');
    await photo.setInputFiles({
      name: 'id-front.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not an image at all'),
    });
    await expect(page.getByText(fileRule, { exact: true })).toBeVisible();
    await page.screenshot({ path: 'test-results/e2e/invite-refusals.png', fullPage: true });

    await firstName.fill('Robin');
    await page.getByRole('textbox', { name: prompt('lastName') }).fill('Vale');
    await phone.fill('+12125550142');
    // The visible control is a button; the chooser it opens takes the file. Enter opens it as
    // Space and a click do (issue 38 §4: Enter did nothing).
    const chooser = page.waitForEvent('filechooser', { timeout: 5_000 });
    await page.getByRole('button', { name: /Replace file/ }).focus();
    await page.keyboard.press('Enter');
    await (await chooser).setFiles('tests/fixtures/files/id-front.png');
    await expect(page.getByText(fileRule, { exact: true })).toBeHidden();
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: 'Confirm Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Accept Invitation' }).click();

    await expect(page).toHaveURL(/\/clearing\/signin\?/);
    await expect(page.getByText(ACCEPTED_MESSAGE)).toBeVisible();

    // The link works once.
    await page.goto(link);
    await page.getByRole('textbox', { name: prompt('firstName') }).fill('Robin');
    await page.getByRole('textbox', { name: prompt('lastName') }).fill('Vale');
    await page.getByRole('textbox', { name: prompt('phoneNumber') }).fill('+12125550142');
    await page.locator('input[type="file"]').setInputFiles('tests/fixtures/files/id-front.png');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: 'Confirm Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Accept Invitation' }).click();
    const failure = page.getByRole('alert');
    await expect(failure).toContainText('This link is invalid or has expired.');
    await expect(failure).toContainText('If this problem persists, please contact support at');

    // The new member signs in straight to home: their organisation already has details.
    await signIn(page, invitee, PASSWORD);
    await expect(page).toHaveURL(/\/clearing\/home$/);
    const me = (await (await page.request.get('/exchange/api/web/user')).json()) as {
      email: string;
      roles: string[];
      details: { firstName: string; lastName: string; phoneNumber: string } | null;
      organizationId: string | null;
    };
    expect(me.email.toLowerCase()).toBe(invitee.toLowerCase());
    expect(me.roles).toEqual(['Trader']);
    expect(me.details).toMatchObject({
      firstName: 'Robin',
      lastName: 'Vale',
      phoneNumber: '+12125550142',
    });
    expect(link).toContain(`organization_id=${me.organizationId}`);
  });
});
