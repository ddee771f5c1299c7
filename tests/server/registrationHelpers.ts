import fs from 'node:fs';
import sharp from 'sharp';
import { signedDocuments, toPayload } from '../../src/shared/forms/payload/payload';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import type { CompiledForm } from '../../src/shared/forms/model/compiledForm';
import { spoolDir } from '../../src/server/storage/uploads';
import { formDataBody, giveEsignConsent, postFormData } from './authHelpers';
import type { TestApp, TestClient } from './testApp';
import { testForm } from '../forms';

export const URL_INDIVIDUAL = '/exchange/api/web/registration/individual';
export const samplePdf = fs.readFileSync('assets/pdfs/terms-of-service.pdf');

/**
 * Every stored upload: the documents in PostgreSQL, and files still in the spool. A request's
 * spool copies are deleted once its answer is sent (onResponse), which may finish just after
 * inject() resolves, so the spool gets a moment to drain first.
 */
export async function storedFiles(t: TestApp): Promise<string[]> {
  const dir = spoolDir(t.config.dataDir);
  const spool = () => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  for (let attempt = 0; spool().length > 0 && attempt < 40; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const spooled = spool();
  const stored = await t.pool.query<{ storage_name: string }>(
    'select storage_name from stored_files order by storage_name',
  );
  return [...stored.rows.map((row) => row.storage_name), ...spooled];
}

/** A valid individual registration of `email`: answers plus every file, as the browser sends it. */
export class IndividualRegistration {
  private constructor(readonly png: Buffer) {}

  static async create(): Promise<IndividualRegistration> {
    const png = await sharp({
      create: { width: 32, height: 20, channels: 3, background: '#8899aa' },
    })
      .png()
      .toBuffer();
    return new IndividualRegistration(png);
  }

  answersFor(email: string): Answers {
    const example = structuredClone(testForm('individual').example) as Answers;
    return {
      ...example,
      primaryEmailAddress: email,
      photoId: { name: 'front.png', type: 'image/png', size: this.png.length },
      photoIdBack: { name: 'back.png', type: 'image/png', size: this.png.length },
      irsFormW2: { name: 'w2.pdf', type: 'application/pdf', size: samplePdf.length },
    };
  }

  /** `files` replaces file answers' bytes by pointer (`/irsFormW2`), as the user chose them. */
  form(email: string, files: Record<string, Blob> = {}): FormData {
    const pdf = () => new Blob([new Uint8Array(samplePdf)], { type: 'application/pdf' });
    const png = () => new Blob([new Uint8Array(this.png)], { type: 'image/png' });
    const documents = Object.fromEntries(
      signedDocuments(testForm('individual')).map((d) => [d.url, pdf()]),
    );
    return toPayload(
      testForm('individual'),
      this.answersFor(email),
      { '/photoId': png(), '/photoIdBack': png(), '/irsFormW2': pdf(), ...files },
      documents,
    );
  }

  /** The multipart body a browser would send for `form(email)`. */
  body(email: string, files: Record<string, Blob> = {}) {
    return formDataBody(this.form(email, files));
  }

  /** How many files a submission carries: the three file answers and each signed document. */
  get fileCount(): number {
    return 3 + signedDocuments(testForm('individual')).length;
  }

  /** Submits as the page does, the e-sign consent given first (see giveEsignConsent). */
  async submit(client: TestClient, email: string, files: Record<string, Blob> = {}) {
    await giveEsignConsent(client);
    return postFormData(client, URL_INDIVIDUAL, this.form(email, files));
  }
}

/**
 * A resubmission of the business form as the browser sends it in change mode: every answer, and
 * bytes only for the files in `files` (the others the server holds).
 */
export async function resubmitBusiness(
  client: TestClient,
  answers: Answers,
  files: Record<string, Blob> = {},
) {
  return resubmitForm(client, testForm('business'), answers, files);
}

/**
 * A resubmission of `form` as the browser sends it in change mode: every answer, and bytes only
 * for the files in `files` (the others the server holds).
 */
export async function resubmitForm(
  client: TestClient,
  form: CompiledForm,
  answers: Answers,
  files: Record<string, Blob> = {},
) {
  const kept = new Set(
    Object.keys(answers)
      .map((key) => `/${key}`)
      .filter((pointer) => !(pointer in files)),
  );
  const pdfBlob = () => new Blob([new Uint8Array(samplePdf)], { type: 'application/pdf' });
  const documents = Object.fromEntries(signedDocuments(form).map((d) => [d.url, pdfBlob()]));
  const request = new Request('http://localhost/', {
    method: 'POST',
    body: toPayload(form, answers, files, documents, kept),
  });
  return client.request('POST', `/exchange/api/web/registration/${form.id}`, {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
}
