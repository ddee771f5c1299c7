import { type Route } from '@playwright/test';
import { NETWORK_FAILURE_MESSAGE } from '../../src/web/api/client';
import { fillIndividualForm, signUpAndSignIn } from './individualForm';
import { expect, test, uniqueEmail } from './support';

/**
 * Access §8: a failed registration shows 'Registration Failed' with the server's errorMessage,
 * else the thrown message, else 'Unknown error occurred.', plus the support hint; the answers
 * and files stay for another try. The refusals are played by intercepting the real request.
 */
test('a refused or failed registration is reported in an alert and loses nothing', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUpAndSignIn(page, uniqueEmail('refused'));
  await page.goto('/clearing/registration/individual');
  await fillIndividualForm(page);
  const submit = page.getByRole('button', { name: 'Submit Registration' });
  await expect(submit).toBeEnabled({ timeout: 15_000 });

  const cases: { answer: (route: Route) => Promise<void>; expected: string }[] = [
    {
      answer: (route) =>
        route.fulfill({
          status: 400,
          json: { errorMessage: 'The W-2 file is not a readable PDF.' },
        }),
      expected: 'The W-2 file is not a readable PDF.',
    },
    { answer: (route) => route.abort('connectionreset'), expected: NETWORK_FAILURE_MESSAGE },
    {
      answer: (route) => route.fulfill({ status: 502, body: '<html>Bad gateway</html>' }),
      expected: 'Unknown error occurred.',
    },
  ];
  for (const { answer, expected } of cases) {
    await page.route('**/exchange/api/web/registration/individual', answer);
    await submit.click();
    const alert = page.getByRole('alert').filter({ hasText: 'Registration Failed' });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(expected);
    await expect(alert).toContainText('If this problem persists, please contact support');
    await expect(submit).toHaveText('Submit Registration');
    await expect(submit).toBeEnabled();
    await page.unroute('**/exchange/api/web/registration/individual');
  }
  // Nothing was lost: typed answers, the SSN, the chosen files and the signatures.
  await expect(page.locator('#root_firstName')).toHaveValue('Jane');
  await expect(page.locator('#root_socialSecurityNumber')).toHaveValue('123-45-6789');
  await expect(page.getByText('w2-sample.pdf')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove Signature' })).toHaveCount(6);
});
