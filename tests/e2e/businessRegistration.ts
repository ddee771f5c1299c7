/**
 * A business registration submitted through the real endpoint as the wizard sends it: the set-up
 * of the review specs, which test what follows the submission (the wizard itself has its spec).
 */
import fs from 'node:fs';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { signedDocuments, toPayload } from '../../src/shared/forms/payload/payload';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { testForm } from '../forms';
import { giveConsentByApi } from './esignConsent';
import { expect } from './support';

export const PLAIN_PDF = 'tests/fixtures/files/w2-sample.pdf';
const ID_PNG = 'tests/fixtures/files/id-front.png';
const form = testForm('business');
const FILES = [
  'certificateOfInc',
  'corporateOrgChart',
  'w8orw9',
  'corporateGuarantee',
  'solicitation',
  'bylawsOrLLCAgreement',
] as const;

/** The CSRF header a state-changing call needs (the `csrf_token` cookie's value). */
export async function csrf(context: BrowserContext): Promise<Record<string, string>> {
  const token = (await context.cookies()).find((cookie) => cookie.name === 'csrf_token');
  return { 'x-csrf-token': token?.value ?? '' };
}

/**
 * The business registration as the wizard sends it (the schema's example, two affiliated
 * persons; the second with a passport issued in Australia), through the real endpoint.
 */
export async function submitBusiness(
  request: APIRequestContext,
  context: BrowserContext,
  email: string,
) {
  const pdf = fs.readFileSync(PLAIN_PDF);
  const png = fs.readFileSync(ID_PNG);
  const answers: Answers = {
    ...structuredClone(form.example),
    email,
    photoId: { name: 'id-front.png', type: 'image/png', size: png.length },
    signerAuthorization: 'yes',
    ...Object.fromEntries(
      FILES.map((key) => [key, { name: `${key}.pdf`, type: 'application/pdf', size: pdf.length }]),
    ),
  };
  const pdfBlob = () => new Blob([new Uint8Array(pdf)], { type: 'application/pdf' });
  const files: Record<string, Blob> = {
    '/photoId': new Blob([new Uint8Array(png)], { type: 'image/png' }),
    ...Object.fromEntries(FILES.map((key) => [`/${key}`, pdfBlob()])),
  };
  const documents = Object.fromEntries(signedDocuments(form).map((d) => [d.url, pdfBlob()]));
  const encoded = new Request('http://localhost/', {
    method: 'POST',
    body: toPayload(form, answers, files, documents),
  });
  await giveConsentByApi(request, context); // as the page asks before the first signature
  const response = await request.post('/exchange/api/web/registration/business', {
    data: Buffer.from(await encoded.arrayBuffer()),
    headers: {
      'content-type': encoded.headers.get('content-type')!,
      ...(await csrf(context)),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { registrationId: string }).registrationId;
}

/** The second affiliated person's passport country, the question staff marked in these tests. */
export const PASSPORT_COUNTRY = '/affiliatedPersons/1/passportCountryOfIssuance';

/**
 * In change mode: the one person row marked opens, shows the reviewer's `note` beside her
 * passport country, keeps her other answers read-only, and takes `country`.
 */
export async function changeMarkedPassportCountry(page: Page, note: string, country: string) {
  const row = page.getByRole('row').filter({ hasText: 'Change requested' });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /Edit/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator(`[data-requested-change="${PASSPORT_COUNTRY}"]`)).toContainText(note);
  // Her other answers read as text, as the review draws them: no input.
  await expect(
    dialog.locator('[data-read-only-answer="/affiliatedPersons/1/firstName"] dd'),
  ).not.toBeEmpty();
  await expect(dialog.locator('#root_affiliatedPersons_1_firstName')).toHaveCount(0);
  await dialog.locator('#root_affiliatedPersons_1_passportCountryOfIssuance').selectOption(country);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
}

/** From change mode through Confirm: the changes sent, home says they are being reviewed. */
export async function sendChanges(page: Page) {
  const steps = testForm('business').steps!;
  await page.getByRole('button', { name: steps[1]!.next }).click();
  await page.getByRole('button', { name: steps[2]!.next }).click();
  const sent = page.getByRole('dialog', { name: 'Changes Sent' });
  await expect(sent).toBeVisible({ timeout: 30_000 });
  await sent.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/clearing\/home$/);
  await expect(
    page.getByText('You sent the changes; we are reviewing your application again'),
  ).toBeVisible();
}
