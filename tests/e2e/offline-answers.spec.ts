import { largePdf } from '../fixtures/pdfs';
import { signUpAndSignIn } from './individualForm';
import { openSavedApplication, saveApplicationByApi } from './savedApplication';
import { expect, test, uniqueEmail } from './support';

const FORM = '/clearing/registration/individual';
const SAVES = /\/applications\/individual$/;

/**
 * Issue 38 §2: answers typed while the server cannot be reached survive a reload (the page's own
 * save on leaving lost too, as after a crash) and reach the server once it answers again; a
 * reload during an upload asks first, and then names the file that did not arrive.
 */
test('offline answers survive a reload and reach the server; a reload during an upload names the lost file', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('offline');
  await signUpAndSignIn(page, email);
  await saveApplicationByApi(page, 'individual', {
    overrides: { lastName: 'Sample', primaryEmailAddress: email },
    files: [],
  });
  await openSavedApplication(page, FORM);

  // The server unreachable for saves: the answer typed is kept on this device, never the SSN.
  await page.route(SAVES, (route) =>
    route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.fallback(),
  );
  await page.locator('#root_lastName').fill('Offline-Typed');
  await page.locator('#root_firstName').click();
  await expect(page.getByRole('status').filter({ hasText: 'Not saved' })).toBeVisible({
    timeout: 15_000,
  });
  const unsent = () =>
    page.evaluate(() => localStorage.getItem('clearing.draft.individual.unsent'));
  await expect.poll(() => unsent()).toContain('Offline-Typed');
  expect(await unsent()).not.toMatch(/123-?45-?6789/);

  // The connection returns and the page is reloaded. page.route cannot catch the save a page
  // sends with keepalive as it goes (it reached the server in a first try of this test): this
  // page's last saves fail as they would against the unreachable server, or after a crash.
  await page.evaluate(() => {
    const send = window.fetch.bind(window);
    window.fetch = (input, init) =>
      init?.method === 'PUT' ? Promise.reject(new TypeError('Failed to fetch')) : send(input, init);
  });
  await page.unroute(SAVES);
  await page.reload();
  await expect(
    page.getByText('Changes you made while our server could not be reached'),
  ).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('#root_lastName')).toHaveValue('Offline-Typed');
  await expect(page.locator('#root_socialSecurityNumber')).toHaveValue('123-45-6789');
  await expect(page.getByRole('status').filter({ hasText: /^Saved / })).toBeVisible({
    timeout: 30_000,
  });
  const held = await page.request.get('/exchange/api/web/applications/individual');
  const { application } = (await held.json()) as {
    application: { answers: Record<string, unknown> };
  };
  expect(application.answers).toMatchObject({
    lastName: 'Offline-Typed',
    socialSecurityNumber: '123-45-6789',
  });
  await expect.poll(() => unsent()).toBeNull();

  // A reload while a W-2 is still uploading over a slow uplink: the browser asks first.
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 64 * 1024,
  });
  // Chromium asks before leaving only a page the user has interacted with.
  await page.locator('#root_firstName').click();
  await page.locator('#root_irsFormW2').setInputFiles({
    name: 'w2-scan.pdf',
    mimeType: 'application/pdf',
    buffer: await largePdf(2 * 1024 * 1024),
  });
  await expect(page.getByRole('progressbar', { name: 'Uploading w2-scan.pdf' })).toBeVisible();
  await page.reload();
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  expect(asked).toContain('beforeunload');
  const notice = page.getByRole('alert').filter({ hasText: 'Your application was restored' });
  await expect(notice).toContainText('with the documents that arrived', { timeout: 30_000 });
  await expect(notice).toContainText('w2-scan.pdf');
  await expect(
    page.getByText('w2-scan.pdf did not arrive: the page was left while it was uploading.'),
  ).toBeVisible();
});
