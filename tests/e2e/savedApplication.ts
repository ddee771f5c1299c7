/**
 * An application saved on the server through the real endpoints, as the page saves one: each
 * file uploaded at its question when chosen, then the answers, with the step to reopen on. The
 * set-up of specs that test what follows the answering (a submission that fails, uploads beside
 * a full form, resuming on a step, a HEIC photo); answering every question through the page has
 * its own specs (individual.spec.ts, the wizard's keyboard submission, application-resume.spec.ts's
 * first test), and each form question type its own (registration-inputs, paste-phone-trim).
 */
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { csrf } from './businessRegistration';
import { giveConsentByApi } from './esignConsent';
import { expect } from './support';

export interface SavedFile {
  /** The file question's pointer, e.g. `/photoId`. */
  pointer: string;
  /** A fixture on disk, stored under its own name. */
  path: string;
  mimeType: string;
}

const example = (formId: string): Answers =>
  JSON.parse(fs.readFileSync(`schemas/${formId}/${formId}.example.json`, 'utf8')) as Answers;

/**
 * Saves `formId`'s application for the signed-in `page`: the e-sign consent (the page asks for it
 * before the first signature), every file, then the answers (`file answers` named after the
 * uploads). Answers default to the form's example with `overrides` on top.
 */
export async function saveApplicationByApi(
  page: Page,
  formId: string,
  {
    overrides = {},
    files,
    step = null,
  }: { overrides?: Answers; files: SavedFile[]; step?: number | null },
): Promise<void> {
  const base = `/exchange/api/web/applications/${formId}`;
  await page.request.get('/clearing/api/web/user'); // the csrf_token cookie, as the page gets it
  await giveConsentByApi(page.request, page.context());
  const headers = await csrf(page.context());
  const answers: Answers = { ...example(formId), ...overrides };
  let revision = 0;
  for (const file of files) {
    const buffer = fs.readFileSync(file.path);
    const name = file.path.split('/').pop()!;
    const uploaded = await page.request.post(`${base}/files`, {
      headers,
      multipart: { pointer: file.pointer, file: { name, mimeType: file.mimeType, buffer } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(200);
    revision = ((await uploaded.json()) as { revision: number }).revision;
    answers[file.pointer.slice(1)] = { name, type: file.mimeType, size: buffer.length };
  }
  const saved = await page.request.put(base, {
    headers,
    data: { answers, baseRevision: revision, step },
  });
  expect(saved.status(), await saved.text()).toBe(200);
}

/**
 * The individual form answered whole, as `fillIndividualForm` answers it (Jane Sample, the
 * fixtures' ID photos and W-2, every agreement signed), saved for the signed-in `page`.
 */
export async function saveIndividualApplication(page: Page, email: string): Promise<void> {
  await saveApplicationByApi(page, 'individual', {
    overrides: { lastName: 'Sample', primaryEmailAddress: email },
    files: [
      { pointer: '/photoId', path: 'tests/fixtures/files/id-front.png', mimeType: 'image/png' },
      { pointer: '/photoIdBack', path: 'tests/fixtures/files/id-back.png', mimeType: 'image/png' },
      {
        pointer: '/irsFormW2',
        path: 'tests/fixtures/files/w2-sample.pdf',
        mimeType: 'application/pdf',
      },
    ],
  });
}

const BUSINESS_PDFS = [
  'certificateOfInc',
  'corporateOrgChart',
  'w8orw9',
  'corporateGuarantee',
  'bylawsOrLLCAgreement',
];

/**
 * The business registration answered whole, as the wizard's spec answers it (the example's
 * business and persons, the fixtures' ID photo and PDFs, every agreement signed), saved for the
 * signed-in `page` on Business Details (step 1) or the step given, `overrides` laid on top.
 */
export async function saveBusinessApplication(
  page: Page,
  email: string,
  { step = 1, overrides = {} }: { step?: number; overrides?: Answers } = {},
): Promise<void> {
  await saveApplicationByApi(page, 'business', {
    overrides: { email, signerAuthorization: 'yes', authorizationForm: undefined, ...overrides },
    step,
    files: [
      { pointer: '/photoId', path: 'tests/fixtures/files/id-front.png', mimeType: 'image/png' },
      ...BUSINESS_PDFS.map((key) => ({
        pointer: `/${key}`,
        path: 'tests/fixtures/files/w2-sample.pdf',
        mimeType: 'application/pdf',
      })),
    ],
  });
}

/** Opens the saved application at `path` and waits for the page to say it was restored. */
export async function openSavedApplication(page: Page, path: string): Promise<void> {
  await page.goto(path);
  // The form's first draw on a 2-core machine busy with the other worker: a wait, not a retry.
  await expect(page.getByText('Your application was restored')).toBeVisible({ timeout: 30_000 });
}
