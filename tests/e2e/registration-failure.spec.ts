import { type Route } from '@playwright/test';
import sharp from 'sharp';
import { NETWORK_FAILURE_MESSAGE } from '../../src/web/api/client';
import { scriptedPdf } from '../fixtures/pdfs';
import { reviewIndividualForm, signUpAndSignIn } from './individualForm';
import { openSavedApplication, saveIndividualApplication } from './savedApplication';
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
  const email = uniqueEmail('refused');
  await signUpAndSignIn(page, email);
  await saveIndividualApplication(page, email);
  await openSavedApplication(page, '/clearing/registration/individual');
  await reviewIndividualForm(page);
  const submit = page.getByRole('button', { name: 'Submit Registration' });
  await expect(submit).toBeEnabled({ timeout: 15_000 });

  const cases: { answer: (route: Route) => Promise<void>; expected: string; retry: boolean }[] = [
    {
      answer: (route) =>
        route.fulfill({
          status: 400,
          json: { errorMessage: 'The W-2 file is not a readable PDF.' },
        }),
      expected: 'The W-2 file is not a readable PDF.',
      // A refusal needs a changed answer: no Try again.
      retry: false,
    },
    {
      answer: (route) => route.abort('connectionreset'),
      expected: NETWORK_FAILURE_MESSAGE,
      retry: true,
    },
    {
      answer: (route) => route.fulfill({ status: 502, body: '<html>Bad gateway</html>' }),
      expected: 'Unknown error occurred.',
      retry: true,
    },
  ];
  const alert = page.getByRole('alert').filter({ hasText: 'Registration Failed' });
  const tryAgain = alert.getByRole('button', { name: 'Try again' });
  for (const { answer, expected, retry } of cases) {
    await page.route('**/exchange/api/web/registration/individual', answer);
    await submit.click();
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(expected);
    await expect(alert).toContainText('If this problem persists, please contact support');
    await expect(tryAgain).toHaveCount(retry ? 1 : 0);
    await expect(submit).toHaveText('Submit Registration');
    await expect(submit).toBeEnabled();
    await page.unroute('**/exchange/api/web/registration/individual');
  }
  // Nothing was lost: typed answers, the SSN, the chosen files and the signatures.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.locator('#root_firstName')).toHaveValue('Jane');
  await expect(page.locator('#root_socialSecurityNumber')).toHaveValue('123-45-6789');
  await expect(page.getByText('w2-sample.pdf')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove Signature' })).toHaveCount(6);
  await reviewIndividualForm(page);

  // The connection is back: Try again sends the same answers and files, and they are received.
  await page.route('**/exchange/api/web/registration/individual', (route) =>
    route.abort('internetdisconnected'),
  );
  await submit.click();
  await expect(alert).toContainText(NETWORK_FAILURE_MESSAGE);
  await page.unroute('**/exchange/api/web/registration/individual');
  await tryAgain.click();
  await expect(page.getByRole('dialog', { name: 'Registration Submitted' })).toBeVisible({
    timeout: 30_000,
  });
});

/** A real photo, several MB (noise does not compress): valid, under the form's 10 MB. */
async function largePng(): Promise<Buffer> {
  return sharp({
    create: {
      width: 1400,
      height: 1400,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 120, sigma: 60 },
    },
  })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** A small photo whose pixels were cut off: it starts as a PNG, the server cannot decode it. */
async function brokenPng(): Promise<Buffer> {
  const png = await sharp({
    create: {
      width: 64,
      height: 64,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 120, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  return png.subarray(0, png.length / 2);
}

/**
 * Issues 17 and 18: files upload when chosen, so a refusal given while another, large file is
 * still uploading reaches the page at once, beside its own field: the refused field is left
 * empty with the server's message, the large file finishes (no bar left waiting), every other
 * answer, file and signature stays, and the corrected submission goes through.
 */
test('a file refused beside a large one: the refusal shows beside its field at once, nothing waits, nothing is lost, the corrected submission succeeds', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('early.refusal');
  await signUpAndSignIn(page, email);
  await saveIndividualApplication(page, email);
  await openSavedApplication(page, '/clearing/registration/individual');
  // Far below the 72 s after which the server's keep-alive timer would end a stalled upload.
  const promptly = { timeout: 20_000 };
  const photo = page.locator('#root_photoId');
  const photoBack = page.locator('#root_photoIdBack');
  const w2 = page.locator('#root_irsFormW2');

  // A slow uplink: the large photo is still being sent when the W-2 is refused.
  const cdp = await page.context().newCDPSession(page);
  const uplink = (bytesPerSecond: number) =>
    cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });
  await uplink(1024 * 1024);
  await photo.setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: await largePng() });
  await expect(page.getByRole('progressbar', { name: 'Uploading front.png' })).toBeVisible();
  await w2.setInputFiles({
    name: 'w2-scripted.pdf',
    mimeType: 'application/pdf',
    buffer: await scriptedPdf(),
  });
  // The reason is the field's message, the file still named to remove or replace.
  await expect(page.locator('#root_irsFormW2__error')).toContainText(
    /contains active content/,
    promptly,
  );
  await expect(page.getByRole('button', { name: 'Remove w2-scripted.pdf' })).toBeVisible();
  // Said at once to screen-reader users, who may be on another question by then (an alert of its
  // own, beside the error summary's).
  const said = page
    .getByRole('alert')
    .filter({ hasText: /^The file for .+ contains active content/ });
  await expect(said).toHaveCount(1);
  // The large photo finishes: no upload is left waiting.
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 90_000 });
  await expect(page.getByText('front.png')).toBeVisible();
  await uplink(-1);

  // A photo that starts as a PNG but cannot be decoded: refused beside its field too.
  await photoBack.setInputFiles({
    name: 'back.png',
    mimeType: 'image/png',
    buffer: await brokenPng(),
  });
  await expect(page.locator('#root_photoIdBack__error')).toContainText(
    /must be an image/,
    promptly,
  );
  await expect(page.getByRole('button', { name: 'Remove back.png' })).toBeVisible();

  // Nothing else lost: typed answers, the SSN, the other files, the signatures.
  await expect(page.locator('#root_firstName')).toHaveValue('Jane');
  await expect(page.locator('#root_socialSecurityNumber')).toHaveValue('123-45-6789');
  await expect(page.getByText('front.png')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove Signature' })).toHaveCount(6);

  // The corrected files: the submission goes through with the large photo the server holds.
  await photoBack.setInputFiles('tests/fixtures/files/id-back.png');
  await w2.setInputFiles('tests/fixtures/files/w2-sample.pdf');
  await expect(page.getByText('w2-sample.pdf')).toBeVisible();
  await expect(page.getByText('id-back.png')).toBeVisible();
  await reviewIndividualForm(page);
  await page.getByRole('button', { name: 'Submit Registration' }).click();
  const dialog = page.getByRole('dialog', { name: 'Registration Submitted' });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
});

/**
 * A body over the limits gets its 413 in the browser, never a hang: a file over the server's
 * 20 MB (the form itself stops at 10 MB; another client need not), and a body declared longer
 * than its route takes, which the server answers unread and closes after a moment of lingering
 * while Chromium is still uploading (throttled, so the upload outlasts the linger).
 */
test('a body above the limits: Chromium gets the 413 and its message', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpAndSignIn(page, uniqueEmail('over.limits'));
  const oversizeFile = await page.evaluate(async () => {
    const csrf = /(?:^|; )csrf_token=([^;]*)/.exec(document.cookie)?.[1] ?? '';
    const form = new FormData();
    form.append('formId', 'individual');
    form.append('photoId', new Blob([new Uint8Array(25 * 1024 * 1024)]), 'huge.png');
    form.append('after', 'the rest of the form');
    const response = await fetch('/exchange/api/web/registration/individual', {
      method: 'POST',
      headers: { 'x-csrf-token': decodeURIComponent(csrf) },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as { errorMessage: string } };
  });
  expect(oversizeFile.status).toBe(413);
  expect(oversizeFile.body.errorMessage).toMatch(/^The file for .+ is too large\.$/);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 1024 * 1024,
  });
  const overBodyLimit = await page.evaluate(async () => {
    const csrf = /(?:^|; )csrf_token=([^;]*)/.exec(document.cookie)?.[1] ?? '';
    const response = await fetch('/exchange/api/web/auth/signin', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) },
      body: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(6 * 1024 * 1024) }),
    });
    return { status: response.status, body: (await response.json()) as { errorMessage: string } };
  });
  expect(overBodyLimit.status).toBe(413);
  expect(overBodyLimit.body.errorMessage).toBeTruthy();
});
