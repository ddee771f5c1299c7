/**
 * Issue 17: the e-sign consent before the first signature (asked once: a reload does not ask
 * again), and an expired session met by the LEI lookup, signed in again in place with the
 * half-filled form kept.
 */
import { SESSION_COOKIE } from '../../src/shared/api/http';
import { consentInDialog, consentText } from './esignConsent';
import { PASSWORD, prompt, signUpAndSignIn } from './individualForm';
import { expect, expectNoSeriousA11yViolations, test, uniqueEmail } from './support';

test('the e-sign consent is asked before the first signature only; Cancel signs nothing; a reload does not ask again', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUpAndSignIn(page, uniqueEmail('esign.consent'));
  await page.goto('/clearing/registration/individual');
  const terms = page.getByRole('group', { name: prompt('agreeTermsOfService') });
  const sign = terms.getByRole('button', { name: 'Electronically Sign' });

  await sign.click();
  const dialog = page.getByRole('dialog', { name: consentText.title });
  await expect(dialog).toBeVisible();
  for (const section of Object.values(consentText.sections)) {
    await expect(dialog.getByRole('heading', { name: section.heading })).toBeVisible();
  }
  await expect(dialog.getByRole('link', { name: consentText.documentLabel })).toHaveAttribute(
    'href',
    '/assets/pdfs/e-sign-consent.pdf',
  );
  // The published PDF is there to open.
  const pdf = await page.request.get('/assets/pdfs/e-sign-consent.pdf');
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  await expectNoSeriousA11yViolations(page);

  await dialog.getByRole('button', { name: consentText.cancelLabel }).click();
  await expect(dialog).toBeHidden();
  await expect(sign).toBeVisible();
  const before = (await (await page.request.get('/exchange/api/web/esign-consent')).json()) as {
    consent: unknown;
  };
  expect(before.consent).toBeNull();

  await sign.click();
  await consentInDialog(page);
  await expect(terms.getByRole('button', { name: 'Remove Signature' })).toBeVisible();
  const given = (await (await page.request.get('/exchange/api/web/esign-consent')).json()) as {
    consent: { id: string } | null;
  };
  expect(given.consent?.id).toEqual(expect.any(String));

  // Another agreement signs at once; after a reload too (the application on the server keeps
  // the signatures: one removed and signed again asks nothing).
  const risk = page.getByRole('group', { name: prompt('agreeRiskDisclosures') });
  await risk.getByRole('button', { name: 'Electronically Sign' }).click();
  await expect(risk.getByRole('button', { name: 'Remove Signature' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Saved/ })).toBeVisible();
  await page.reload();
  await terms.getByRole('button', { name: 'Remove Signature' }).click();
  await terms.getByRole('button', { name: 'Electronically Sign' }).click();
  await expect(terms.getByRole('button', { name: 'Remove Signature' })).toBeVisible();
  await expect(dialog).toHaveCount(0);
});

test('an expired session during the LEI lookup: sign in again in the dialog, the lookup fills the business, the answers are still there', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('expired.session');
  await signUpAndSignIn(page, email);
  await page.getByLabel(/Business/).check();
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/clearing\/registration\/business$/);
  await page.locator('#root_firstName').fill('Daniel');
  await page.locator('#root_lastName').fill('Okafor');
  await page.locator('#root_phoneNumber').pressSequentially('+12125550187');
  await page.locator('#root_photoId').setInputFiles('tests/fixtures/files/id-front.png');
  await expect(page.getByText('id-front.png')).toBeVisible();
  await page.getByRole('button', { name: 'Register User' }).click();
  await page.locator('#root_bizEmail').fill('compliance@graniteridge.example');
  await page.locator('#root_website').fill('https://graniteridge.example');

  // The session ends while the form is open (the cookie gone, as after a server-side expiry).
  await page.context().clearCookies({ name: SESSION_COOKIE });
  await page.locator('#root_lei').fill('5493001KJTIIGC8Y1R12');
  const dialog = page.getByRole('dialog', { name: 'Please sign in again' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
  await expectNoSeriousA11yViolations(page);
  await dialog.getByLabel(/Password/).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Sign In' }).click();
  await expect(dialog).toBeHidden();

  await expect(page.locator('#root_bizName')).toHaveValue('Granite Ridge Mining Co.');
  // Still the same page and step: nothing navigated away.
  await expect(page).toHaveURL(/\/clearing\/registration\/business\?step=business$/);
  await expect(page.locator('#root_bizEmail')).toHaveValue('compliance@graniteridge.example');
  await expect(page.locator('#root_website')).toHaveValue('https://graniteridge.example');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.locator('#root_firstName')).toHaveValue('Daniel');
  await expect(page.getByText('id-front.png')).toBeVisible();
});

test('with the connection cut, Electronically Sign keeps the page and the answers, says what failed, and signs once it is back', async ({
  page,
}) => {
  await signUpAndSignIn(page, uniqueEmail('esign.offline'));
  await page.goto('/clearing/registration/individual');
  await page.locator('#root_firstName').fill('Jane');
  // The connection drops: every request fails from now on, the dialog's own code included.
  await page.route('**/*', (route) => route.abort('internetdisconnected'));
  const terms = page.getByRole('group', { name: prompt('agreeTermsOfService') });
  await terms.getByRole('button', { name: 'Electronically Sign' }).click();
  const failed = page
    .getByRole('alert')
    .filter({ hasText: 'Part of this page could not be loaded' });
  await expect(failed).toBeVisible();
  await expect(page.locator('#root_firstName')).toHaveValue('Jane');
  await expect(terms.getByRole('button', { name: 'Electronically Sign' })).toBeVisible();

  await page.unroute('**/*');
  await failed.getByRole('button', { name: 'Try again' }).click();
  await consentInDialog(page);
  await expect(terms.getByRole('button', { name: 'Remove Signature' })).toBeVisible();
  await expect(page.locator('#root_firstName')).toHaveValue('Jane');
});
