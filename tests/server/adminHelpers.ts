import fs from 'node:fs';
import { signedDocuments, toPayload } from '../../src/shared/forms/payload/payload';
import type { CompiledForm } from '../../src/shared/forms/model/compiledForm';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { giveEsignConsent, pngBytes, postFormData, signedIn } from './authHelpers';
import type { TestApp, TestClient } from './testApp';
import { testForm } from '../forms';

const samplePdf = fs.readFileSync('assets/pdfs/terms-of-service.pdf');

/** A signed-in staff client. */
export async function signedInStaff(t: TestApp) {
  const staff = await signedIn(t);
  await t.pool.query('update users set is_staff = true where id = $1', [staff.id]);
  return staff;
}

/**
 * A signed-in customer who has submitted a valid individual registration through the real
 * endpoint; answers are the schema's example with `overrides`. `form` is the individual form as
 * the app serves it (a reworded one in a test of wording).
 */
export async function registeredCustomer(
  t: TestApp,
  overrides: Answers = {},
  form = testForm('individual'),
) {
  const customer = await signedIn(t);
  const png = await pngBytes();
  const answers: Answers = {
    ...(structuredClone(form.example) as Answers),
    primaryEmailAddress: customer.email,
    photoId: { name: 'front.png', type: 'image/png', size: png.length },
    photoIdBack: { name: 'back.png', type: 'image/png', size: png.length },
    irsFormW2: { name: 'w2.pdf', type: 'application/pdf', size: samplePdf.length },
    ...overrides,
  };
  const pngBlob = () => new Blob([new Uint8Array(png)], { type: 'image/png' });
  const pdfBlob = () => new Blob([new Uint8Array(samplePdf)], { type: 'application/pdf' });
  const files = { '/photoId': pngBlob(), '/photoIdBack': pngBlob(), '/irsFormW2': pdfBlob() };
  return submitted(customer, form, answers, files);
}

/**
 * `customer` submits `answers` of the form with their files (and each signed document) through
 * the real endpoint; the registration and organisation it made.
 */
async function submitted<Customer extends { client: TestClient }>(
  customer: Customer,
  compiled: CompiledForm,
  answers: Answers,
  files: Record<string, Blob>,
) {
  const pdfBlob = () => new Blob([new Uint8Array(samplePdf)], { type: 'application/pdf' });
  const documents = signedDocuments(compiled).map((d) => [d.url, pdfBlob()]);
  const form = toPayload(compiled, answers, files, Object.fromEntries(documents));
  await giveEsignConsent(customer.client); // as the page asks before the first signature
  const response = await postFormData(
    customer.client,
    `/exchange/api/web/registration/${compiled.id}`,
    form,
  );
  if (response.statusCode !== 201) throw new Error(`registration failed: ${response.body}`);
  const body = response.json() as { registrationId: string; user: { organizationId: string } };
  return {
    ...customer,
    registrationId: body.registrationId,
    organizationId: body.user.organizationId,
    answers,
  };
}

/** The business form's file answers (PDFs), beside the photo ID. */
const BUSINESS_FILES = [
  'certificateOfInc',
  'corporateOrgChart',
  'w8orw9',
  'corporateGuarantee',
  'solicitation',
  'bylawsOrLLCAgreement',
] as const;

/**
 * A signed-in customer who has submitted a valid business registration (the schema's example,
 * a signatory, with `overrides`) through the real endpoint.
 */
export async function registeredBusiness(
  t: TestApp,
  overrides: Answers = {},
  compiled = testForm('business'),
) {
  const customer = await signedIn(t);
  const png = await pngBytes();
  const pdfRef = (name: string) => ({ name, type: 'application/pdf', size: samplePdf.length });
  const answers: Answers = {
    ...(structuredClone(compiled.example) as Answers),
    email: customer.email,
    photoId: { name: 'passport.png', type: 'image/png', size: png.length },
    signerAuthorization: 'yes',
    ...Object.fromEntries(BUSINESS_FILES.map((key) => [key, pdfRef(`${key}.pdf`)])),
    ...overrides,
  };
  const pdfBlob = () => new Blob([new Uint8Array(samplePdf)], { type: 'application/pdf' });
  const files: Record<string, Blob> = {
    '/photoId': new Blob([new Uint8Array(png)], { type: 'image/png' }),
    ...Object.fromEntries(BUSINESS_FILES.map((key) => [`/${key}`, pdfBlob()])),
  };
  return submitted(customer, compiled, answers, files);
}

export async function auditRows(t: TestApp, action: string, since = new Date(0)) {
  const result = await t.pool.query<{
    actor_user_id: string | null;
    subject: string | null;
    registration_id: string | null;
    detail: Record<string, unknown>;
    at: Date;
  }>(
    `select actor_user_id, subject, registration_id, detail, at from audit_log
      where action = $1 and at >= $2 order by seq`,
    [action, since],
  );
  return result.rows;
}

/** A form post from the console's own pages: urlencoded, with the CSRF hidden field. */
export function postForm(
  client: TestClient,
  url: string,
  fields: Record<string, string> | [string, string][],
  options: { csrf?: string | null; accept?: string } = {},
) {
  const token =
    options.csrf === undefined ? (client.cookies.get('csrf_token') ?? '') : options.csrf;
  // Pairs keep a repeated field (every mark of a request for changes).
  const body = new URLSearchParams(Array.isArray(fields) ? fields : Object.entries(fields));
  if (token !== null) body.append('_csrf', token);
  return client.request('POST', url, {
    payload: body.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(options.accept ? { accept: options.accept } : {}),
    },
    csrf: false,
  });
}
