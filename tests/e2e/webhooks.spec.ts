/**
 * Webhooks from the Profile page (issue 40 §5), the real server's worker posting to a receiver
 * on loopback: an Administrator adds an endpoint, keeps its secret, staff ask for changes, the
 * signed post arrives and is listed as delivered; a resend posts the same event again.
 */
import { startReceiver, verifyWebhook } from '../server/webhookReceiver';
import { csrf, submitBusiness } from './businessRegistration';
import { signUpAndSignIn } from './individualForm';
import { expect, signInAsStaff, test, uniqueEmail } from './support';

const PROFILE = '/exchange/dashboard/profile';

test('an endpoint added on the Profile page receives the signed event; the delivery is listed and resent', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const receiver = await startReceiver();
  try {
    const email = uniqueEmail('webhooks');
    await signUpAndSignIn(page, email);
    const registrationId = await submitBusiness(page.request, page.context(), email);

    await page.goto(PROFILE);
    const section = page.locator('section', {
      has: page.getByRole('heading', { name: 'Webhooks', exact: true }),
    });
    await section.getByLabel('Endpoint URL').fill(receiver.url);
    await section.getByRole('checkbox', { name: 'registration.changes_requested' }).check();
    await section.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await section.getByRole('textbox', { name: 'Secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.screenshot({ path: test.info().outputPath('webhooks-added.png'), fullPage: true });
    await section.getByRole('button', { name: 'I have kept it' }).click();
    await expect(section.getByRole('textbox', { name: 'Secret' })).toHaveCount(0);

    const staff = await signInAsStaff(browser);
    const asked = await staff.request.post('/exchange/api/admin/onboarding/kyc-changes-request', {
      data: { registrationId, note: 'Please upload a sharper scan.' },
      headers: await csrf(staff.context()),
    });
    expect(asked.status(), await asked.text()).toBe(200);

    // The worker posts within its poll (2 s); the post is signed with the secret shown once.
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1);
    const [post] = receiver.received;
    expect(verifyWebhook(secret, String(post!.headers['northstar-signature']), post!.body)).toBe(
      true,
    );
    const event = JSON.parse(post!.body) as { id: string; type: string; data: object };
    expect(event.type).toBe('registration.changes_requested');
    expect(event.data).toMatchObject({ registrationId, status: 'changes_requested' });

    await page.reload();
    await expect(section.getByRole('cell', { name: /^Delivered/ })).toBeVisible();
    await expect(section.getByText('Answered 200')).toBeVisible();
    await section.getByRole('button', { name: /^Resend registration\.changes_requested/ }).click();
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(2);
    expect((JSON.parse(receiver.received[1]!.body) as { id: string }).id).toBe(event.id);
    await page.reload();
    await expect(section.getByText('Answered 200')).toHaveCount(2);
    await page.screenshot({
      path: test.info().outputPath('webhooks-delivered.png'),
      fullPage: true,
    });
  } finally {
    await receiver.close();
  }
});
