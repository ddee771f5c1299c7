/**
 * A business registration submitted through the real endpoint as the wizard sends it: the set-up
 * of the review specs, which test what follows the submission (the wizard itself has its spec).
 */
import fs from 'node:fs';
import type { APIRequestContext, BrowserContext } from '@playwright/test';
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
