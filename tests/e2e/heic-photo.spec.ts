import { reviewIndividualForm, signUpAndSignIn } from './individualForm';
import { openSavedApplication, saveIndividualApplication } from './savedApplication';
import { expect, openRegistrationAsStaff, test, uniqueEmail } from './support';

test('an iPhone photo ID (HEIC) is taken by the form and the server, and staff see it as a picture', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('heic');
  await signUpAndSignIn(page, email);
  await saveIndividualApplication(page, email);
  await openSavedApplication(page, '/clearing/registration/individual');

  // An empty file reads only that it is empty, not that it is of the wrong kind.
  const w2 = page.locator('#root_irsFormW2');
  await w2.setInputFiles({
    name: 'empty.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.alloc(0),
  });
  await expect(page.getByText('The file is empty').first()).toBeVisible();
  await expect(page.getByText('Must be a PDF document')).toHaveCount(0);
  await w2.setInputFiles('tests/fixtures/files/w2-sample.pdf');
  await expect(page.getByText('The file is empty')).toHaveCount(0);

  // The photo ID as an iPhone saves it.
  await page.locator('#root_photoId').setInputFiles('tests/fixtures/files/id-front.heic');
  await expect(page.getByText('id-front.heic')).toBeVisible();
  await expect(page.getByText(/Must be a JPEG, PNG, WebP or HEIC image/)).toHaveCount(0);
  // An AVIF is not among the types the forms take: refused beside the field, from the schema.
  await page.locator('#root_photoIdBack').setInputFiles('tests/fixtures/files/id-front.avif');
  await expect(page.getByText('Must be a JPEG, PNG, WebP or HEIC image').first()).toBeVisible();
  await page.locator('#root_photoIdBack').setInputFiles('tests/fixtures/files/id-back.png');
  await expect(page.getByText('Must be a JPEG, PNG, WebP or HEIC image')).toHaveCount(0);

  // Submit is on the individual form's review step.
  await reviewIndividualForm(page);
  const submit = page.getByRole('button', { name: 'Submit Registration' });
  await expect(submit).toBeEnabled({ timeout: 15_000 });
  await submit.click();
  await expect(page.getByRole('dialog')).toContainText(/received/i, { timeout: 30_000 });

  const staffPage = await openRegistrationAsStaff(browser, email, /Jane Sample/);
  // The preview is the JPEG rendition, decoded by the browser (a HEIC would show nothing).
  const preview = staffPage.locator('figure.preview img').first();
  await preview.scrollIntoViewIfNeeded();
  await expect
    .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(420);
  await expect(staffPage.getByRole('link', { name: /id-front\.heic/ }).first()).toBeVisible();
  await staffPage.context().close();
});
