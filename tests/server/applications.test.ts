import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { newFieldKey, parseFieldKeys } from '../../src/server/fieldEncryption/keyRing';
import { rotateFieldKeys } from '../../src/server/fieldEncryption/rotateKeys';
import { findApplicationForSave, saveAnswersAtRevision } from '../../src/server/db/applications';
import type { ApplicationConflict, ApplicationResponse } from '../../src/shared/api/applications';
import type { Answers, JsonSchema } from '../../src/shared/forms/model/schemaTypes';
import { auditRows, signedInStaff } from './adminHelpers';
import { signedDocuments, toPayloadJson } from '../../src/shared/forms/payload/payload';
import {
  formDataBody,
  freshClient,
  giveEsignConsent,
  PASSWORD,
  pdfBytes,
  pngBytes,
  postForm,
  signedIn,
  type Part,
} from './authHelpers';
import { samplePdf, storedFiles, URL_INDIVIDUAL } from './registrationHelpers';
import { readStoredBytes } from '../../src/server/db/documents';
import { testAppForBlock, TestClient, type TestApp } from './testApp';
import { projectSources, testForm } from '../forms';
import { compileForms, type FormCatalog } from '../../src/shared/forms/model/compileNode';

const K1 = newFieldKey('k1');
const K2 = newFieldKey('k2');
const API = '/exchange/api/web/applications';

const individualAnswers = (): Answers => {
  const answers = structuredClone(testForm('individual').example) as Answers;
  // File answers come from the files the application holds, never from a save.
  for (const key of ['photoId', 'photoIdBack', 'irsFormW2']) delete answers[key];
  return answers;
};
const businessAnswers = (): Answers => {
  const answers = structuredClone(testForm('business').example) as Answers;
  for (const [key, value] of Object.entries(answers)) {
    if (value && typeof value === 'object' && 'size' in value) delete answers[key];
  }
  return answers;
};

function save(client: TestClient, formId: string, body: unknown, options: { csrf?: boolean } = {}) {
  return client.request('PUT', `${API}/${formId}`, { json: body, ...options });
}

async function load(client: TestClient, formId: string) {
  const response = await client.get(`${API}/${formId}`);
  expect(response.statusCode).toBe(200);
  return (response.json() as ApplicationResponse).application;
}

/** Everything the database holds of a user's applications, as text. */
async function rawApplications(t: TestApp, userId: string): Promise<string> {
  const rows = await t.pool.query<{ text: string }>(
    'select answers::text as text from applications where user_id = $1',
    [userId],
  );
  return rows.rows.map((row) => row.text).join('\n');
}

describe('applications on the server: save and resume', () => {
  const t = testAppForBlock({ fieldEncryptionKeys: K1 });

  it('saves a first draft and reads it back with every answer', async () => {
    const user = await signedIn(t);
    expect(await load(user.client, 'individual')).toBeNull();
    const partial = { firstName: 'Jane', socialSecurityNumber: '123-45-6789' };
    const first = await save(user.client, 'individual', {
      answers: partial,
      baseRevision: 0,
      step: 0,
    });
    expect(first.statusCode).toBe(200);
    const saved = first.json() as { revision: number; savedAt: string };
    expect(saved.revision).toBe(1);
    expect(new Date(saved.savedAt).getTime()).not.toBeNaN();

    const application = await load(user.client, 'individual');
    expect(application).toMatchObject({
      formId: 'individual',
      schemaHash: testForm('individual').hash,
      revision: 1,
      savedAt: saved.savedAt,
      step: 0,
      status: 'draft',
      answers: partial,
      files: {},
      changeRequest: null,
      carriedOver: null,
    });

    const second = await save(user.client, 'individual', {
      answers: individualAnswers(),
      baseRevision: 1,
      step: 3,
    });
    expect(second.statusCode).toBe(200);
    expect((second.json() as { revision: number }).revision).toBe(2);
    const created = await auditRows(t, 'application.created');
    const mine = created.filter((row) => row.actor_user_id === user.id);
    expect(mine).toHaveLength(1);
    expect(JSON.stringify(mine[0]!.detail)).not.toMatch(/Jane|123-45/);
  });

  it('resumes from a second session with SSN and date of birth', async () => {
    const user = await signedIn(t);
    const answers = individualAnswers();
    expect(
      (await save(user.client, 'individual', { answers, baseRevision: 0, step: 2 })).statusCode,
    ).toBe(200);
    // Another device: a new client, signed in again.
    const other = freshClient(t.app);
    const signin = await other.post('/exchange/api/web/auth/signin', {
      email: user.email,
      password: PASSWORD,
    });
    expect(signin.statusCode).toBe(200);
    const application = await load(other, 'individual');
    expect(application?.answers).toEqual(answers);
    expect(application?.answers.socialSecurityNumber).toBe('123-45-6789');
    expect(application?.answers.dateOfBirth).toBe('04/17/1985');
    expect(application?.step).toBe(2);
    // The contract's path without /web answers the same.
    const plain = await other.get(`/exchange/api/applications/individual`);
    expect((plain.json() as ApplicationResponse).application?.answers).toEqual(answers);
  });

  it('stores no plain SSN, passport number or date of birth', async () => {
    const user = await signedIn(t);
    expect(
      (await save(user.client, 'individual', { answers: individualAnswers(), baseRevision: 0 }))
        .statusCode,
    ).toBe(200);
    expect(
      (await save(user.client, 'business', { answers: businessAnswers(), baseRevision: 0 }))
        .statusCode,
    ).toBe(200);
    const raw = await rawApplications(t, user.id);
    expect(raw).toContain('Okafor'); // the rest stays readable to the database
    expect(raw).toContain("O'Neill");
    for (const plain of [
      '123-45-6789',
      '123456789',
      'PA1234567',
      '04/17/1985',
      '02/03/1975',
      '11/22/1969',
    ]) {
      expect(raw).not.toContain(plain);
    }
    expect(raw).toContain('"$sealed": "v1.k1.');
    const business = await load(user.client, 'business');
    expect(business?.answers).toEqual(businessAnswers());
  });

  it('another user cannot reach an application', async () => {
    const owner = await signedIn(t);
    const other = await signedIn(t);
    await save(owner.client, 'individual', { answers: individualAnswers(), baseRevision: 0 });
    expect(await load(other.client, 'individual')).toBeNull();
    // The other's save makes their own application, leaving the owner's as it was.
    await save(other.client, 'individual', { answers: { firstName: 'Mallory' }, baseRevision: 0 });
    expect((await load(owner.client, 'individual'))?.answers.firstName).toBe('Jane');
    expect((await load(other.client, 'individual'))?.answers).toEqual({ firstName: 'Mallory' });
  });

  it('a save from a stale revision is refused with the stored application', async () => {
    const user = await signedIn(t);
    await save(user.client, 'individual', { answers: { firstName: 'Jane' }, baseRevision: 0 });
    // Window B saves from revision 1.
    const b = await save(user.client, 'individual', {
      answers: { firstName: 'Jane', lastName: 'Sample' },
      baseRevision: 1,
    });
    expect(b.statusCode).toBe(200);
    // Window A, still at revision 1, saves too.
    const a = await save(user.client, 'individual', {
      answers: { firstName: 'Janet' },
      baseRevision: 1,
    });
    expect(a.statusCode).toBe(409);
    const conflict = a.json() as ApplicationConflict;
    expect(conflict.errorMessage).toMatch(/^This application was changed in another window\./);
    expect(conflict.application).toMatchObject({
      revision: 2,
      answers: { firstName: 'Jane', lastName: 'Sample' },
    });
    // Merged and saved again from the revision it was told: accepted.
    const merged = await save(user.client, 'individual', {
      answers: { firstName: 'Janet', lastName: 'Sample' },
      baseRevision: 2,
    });
    expect(merged.statusCode).toBe(200);
    expect((merged.json() as { revision: number }).revision).toBe(3);
    // A second first save (another window that never loaded) is stale as well.
    const again = await save(user.client, 'individual', { answers: {}, baseRevision: 0 });
    expect(again.statusCode).toBe(409);
  });

  it('rotating the key leaves applications readable under the new key alone', async () => {
    const user = await signedIn(t);
    await save(user.client, 'business', { answers: businessAnswers(), baseRevision: 0 });
    const counts = await rotateFieldKeys(t.pool, parseFieldKeys(`${K2},${K1}`), t.app.forms);
    expect(counts.unreadable).toEqual([]);
    expect(await rawApplications(t, user.id)).not.toContain('v1.k1.');
    const onlyK2: FastifyInstance = await buildApp({
      config: { ...t.config, fieldEncryptionKeys: K2 },
      pool: t.pool,
      mailer: t.mailer,
      logger: false,
    });
    await onlyK2.ready();
    try {
      const client = new TestClient(onlyK2);
      for (const [name, value] of user.client.cookies) client.cookies.set(name, value);
      const application = await load(client, 'business');
      expect(application?.answers).toEqual(businessAnswers());
    } finally {
      await onlyK2.close();
    }
  });
});

describe('applications on the server: refusals', () => {
  const t = testAppForBlock();

  it('refuses callers who are not signed in', async () => {
    const client = freshClient(t.app);
    const get = await client.get(`${API}/individual`);
    expect(get.statusCode).toBe(401);
    expect(get.json()).toHaveProperty('errorMessage');
    const put = await save(client, 'individual', { answers: {}, baseRevision: 0 });
    expect(put.statusCode).toBe(401);
    expect(put.json()).toHaveProperty('errorMessage');
  });

  it('refuses a form that is not a registration form', async () => {
    const user = await signedIn(t);
    for (const formId of ['nonsense', 'person', 'affiliated-person']) {
      const get = await user.client.get(`${API}/${formId}`);
      expect(get.statusCode).toBe(404);
      expect((get.json() as { errorMessage: string }).errorMessage).toBe(
        'There is no registration form of that name.',
      );
      expect((await save(user.client, formId, { answers: {}, baseRevision: 0 })).statusCode).toBe(
        404,
      );
    }
  });

  it('refuses a save without the CSRF header', async () => {
    const user = await signedIn(t);
    const response = await save(
      user.client,
      'individual',
      { answers: {}, baseRevision: 0 },
      { csrf: false },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json()).toHaveProperty('errorMessage');
    expect(await load(user.client, 'individual')).toBeNull();
  });

  it('refuses answers of the wrong shape, naming what is wrong', async () => {
    const user = await signedIn(t);
    const cases: [unknown, number, RegExp][] = [
      [{ answers: [], baseRevision: 0 }, 400, /answers/],
      [{ answers: 'x', baseRevision: 0 }, 400, /answers/],
      [{ answers: {} }, 400, /baseRevision/],
      [{ answers: {}, baseRevision: -1 }, 400, /baseRevision/],
      [{ answers: { favouriteColour: 'blue' }, baseRevision: 0 }, 400, /\/favouriteColour/],
      [
        { answers: { mailingAddress: { line1: '1 Main St', floor: 3 } }, baseRevision: 0 },
        400,
        /\/mailingAddress\/floor/,
      ],
    ];
    for (const [body, status, message] of cases) {
      const response = await save(user.client, 'individual', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect((response.json() as { errorMessage: string }).errorMessage).toMatch(message);
    }
    // An affiliated person's unknown answer is named by its pointer too.
    const person = await save(user.client, 'business', {
      answers: { affiliatedPersons: [{ firstName: 'A', shoeSize: 9 }] },
      baseRevision: 0,
    });
    expect(person.statusCode).toBe(400);
    expect((person.json() as { errorMessage: string }).errorMessage).toMatch(
      /\/affiliatedPersons\/0\/shoeSize/,
    );
    expect(await load(user.client, 'individual')).toBeNull();
  });

  it('refuses a body over the size limit with a message', async () => {
    const user = await signedIn(t);
    const response = await save(user.client, 'individual', {
      answers: { firstName: 'x'.repeat(1024 * 1024 + 10) },
      baseRevision: 0,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toHaveProperty('errorMessage');
  });

  it('refuses saves after submission', async () => {
    const user = await signedIn(t);
    await save(user.client, 'individual', { answers: { firstName: 'Jane' }, baseRevision: 0 });
    await t.pool.query(`update applications set status = 'submitted' where user_id = $1`, [
      user.id,
    ]);
    const response = await save(user.client, 'individual', {
      answers: { firstName: 'Janet' },
      baseRevision: 1,
    });
    expect(response.statusCode).toBe(409);
    expect((response.json() as { errorMessage: string }).errorMessage).toBe(
      'This application has been submitted and is awaiting review, so it can no longer be changed.',
    );
    expect((await load(user.client, 'individual'))?.answers.firstName).toBe('Jane');
  });
});

const FILES = (formId: string) => `${API}/${formId}/files`;

function upload(client: TestClient, formId: string, pointer: string, file: Part) {
  return postForm(client, FILES(formId), [{ name: 'pointer', value: pointer }, file]);
}
const pdfPart = (data: Buffer, filename = 'w2.pdf'): Part => ({
  name: 'file',
  filename,
  contentType: 'application/pdf',
  data,
});
const pngPart = (data: Buffer, filename = 'front.png'): Part => ({
  name: 'file',
  filename,
  contentType: 'image/png',
  data,
});
const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/** A valid PDF of more than `megabytes` MB (one unreferenced stream of zeros). */
async function largePdf(megabytes: number): Promise<Buffer> {
  const { PDFDocument } = await import('pdf-lib');
  const document = await PDFDocument.create();
  document.addPage();
  document.context.register(document.context.stream(new Uint8Array(megabytes * 1024 * 1024)));
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/**
 * The individual registration's multipart body as the browser sends it when the application
 * holds the files: the prompt+value parts and the signed documents, no file answer's bytes.
 */
async function submissionWithoutFiles(
  answers: Answers,
): Promise<{ payload: Buffer; type: string }> {
  const form = testForm('individual');
  const payload = toPayloadJson(form, answers);
  const body = new FormData();
  body.append('formId', payload.formId);
  body.append('schemaHash', payload.schemaHash);
  for (const [name, section] of Object.entries(payload.parts)) {
    body.append(name, JSON.stringify(section));
  }
  for (const document of signedDocuments(form)) {
    body.append(document.part, new Blob([new Uint8Array(samplePdf)]), 'document.pdf');
  }
  const encoded = await formDataBody(body);
  return { payload: encoded.payload, type: encoded.contentType };
}

describe('applications on the server: files', () => {
  const t = testAppForBlock();

  it('stores a file for its question, replaces it, and removes it', async () => {
    const user = await signedIn(t);
    const first = await upload(user.client, 'individual', '/irsFormW2', pdfPart(samplePdf));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      pointer: '/irsFormW2',
      name: 'w2.pdf',
      type: 'application/pdf',
      size: samplePdf.length,
      // Created empty (revision 1), then given the file.
      revision: 2,
    });
    let application = await load(user.client, 'individual');
    expect(application?.files).toEqual({
      '/irsFormW2': { name: 'w2.pdf', type: 'application/pdf', size: samplePdf.length },
    });
    expect(application?.answers.irsFormW2).toEqual(application?.files['/irsFormW2']);
    // A save keeps the held file's answer whatever the browser sends for it.
    const saved = await save(user.client, 'individual', {
      answers: { firstName: 'Jane', irsFormW2: { name: 'forged.pdf', type: 'x', size: 1 } },
      baseRevision: application!.revision,
    });
    expect(saved.statusCode).toBe(200);
    expect((await load(user.client, 'individual'))?.answers.irsFormW2).toEqual(
      application?.files['/irsFormW2'],
    );

    const before = await storedFiles(t);
    const other = await pdfBytes();
    const second = await upload(
      user.client,
      'individual',
      '/irsFormW2',
      pdfPart(other, 'w2-new.pdf'),
    );
    expect(second.statusCode).toBe(200);
    expect((second.json() as { revision: number }).revision).toBe(4);
    // The replaced file's bytes went with it: as many stored files as before.
    expect((await storedFiles(t)).length).toBe(before.length);
    application = await load(user.client, 'individual');
    expect(application?.files['/irsFormW2']?.name).toBe('w2-new.pdf');

    const removed = await user.client.request(
      'DELETE',
      `${FILES('individual')}?pointer=${encodeURIComponent('/irsFormW2')}`,
    );
    expect(removed.statusCode).toBe(204);
    application = await load(user.client, 'individual');
    expect(application?.files).toEqual({});
    expect(application?.answers).toEqual({ firstName: 'Jane' });
    expect((await storedFiles(t)).length).toBe(before.length - 1);
  });

  it('audits each upload and removal at the route: who, which question, ids only', async () => {
    const user = await signedIn(t);
    const since = new Date();
    const uploaded = await upload(user.client, 'individual', '/irsFormW2', pdfPart(samplePdf));
    expect(uploaded.statusCode).toBe(200);
    const applicationId = (
      await t.pool.query<{ id: string }>('select id from applications where user_id = $1', [
        user.id,
      ])
    ).rows[0]!.id;
    const [uploadRow, ...moreUploads] = (
      await auditRows(t, 'application.file-uploaded', since)
    ).filter((row) => row.actor_user_id === user.id);
    expect(moreUploads).toEqual([]);
    expect(uploadRow).toMatchObject({
      actor_user_id: user.id,
      registration_id: null,
    });
    // Ids, the question, and what kind of file: never the file's name (an applicant's words).
    expect(uploadRow!.detail).toEqual({
      formId: 'individual',
      applicationId,
      field: '/irsFormW2',
      type: 'application/pdf',
      size: samplePdf.length,
    });

    // A refused upload changes nothing and records no upload.
    const refused = await upload(user.client, 'individual', '/firstName', pdfPart(samplePdf));
    expect(refused.statusCode).toBe(400);
    expect(
      (await auditRows(t, 'application.file-uploaded', since)).filter(
        (row) => row.actor_user_id === user.id,
      ),
    ).toHaveLength(1);

    const removed = await user.client.request(
      'DELETE',
      `${FILES('individual')}?pointer=${encodeURIComponent('/irsFormW2')}`,
    );
    expect(removed.statusCode).toBe(204);
    const removals = (await auditRows(t, 'application.file-removed', since)).filter(
      (row) => row.actor_user_id === user.id,
    );
    expect(removals).toEqual([
      expect.objectContaining({
        detail: expect.objectContaining({ applicationId, field: '/irsFormW2' }),
      }),
    ]);
  });

  it('stores a held file byte for byte, in chunks of 2 MiB, without trying to compress it', async () => {
    const user = await signedIn(t);
    const sent = await largePdf(5);
    const uploaded = await upload(user.client, 'individual', '/irsFormW2', pdfPart(sent));
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const held = await findApplicationForSave(t.pool, user.id, 'individual');
    const name = held!.files[0]!.storageName;
    const chunks = await t.pool.query<{ seq: number; bytes: Buffer; compression: string | null }>(
      `select seq, bytes, pg_column_compression(bytes) as compression from stored_file_chunks
        where storage_name = $1 order by seq`,
      [name],
    );
    // 5 MB and a little: three rows, none over 2 MiB, joined back to the bytes sent.
    expect(chunks.rows.map((row) => row.seq)).toEqual([0, 1, 2]);
    expect(chunks.rows.every((row) => row.bytes.length <= 2 * 1024 * 1024)).toBe(true);
    expect(Buffer.concat(chunks.rows.map((row) => row.bytes)).equals(sent)).toBe(true);
    expect(chunks.rows.map((row) => row.compression)).toEqual([null, null, null]);
    const whole = await t.pool.query<{ bytes: Buffer | null; size: number; joined: Buffer }>(
      `select bytes, size, stored_file_bytes(storage_name) as joined from stored_files
        where storage_name = $1`,
      [name],
    );
    expect(whole.rows[0]!.bytes).toBeNull();
    expect(whole.rows[0]!.size).toBe(sent.length);
    expect(whole.rows[0]!.joined.equals(sent)).toBe(true);
    // Staff read it back whole.
    expect((await readStoredBytes(t.pool, name))!.equals(sent)).toBe(true);
    // Documents are PDFs and photos, compressed already: PostgreSQL stores them as they come.
    const storage = await t.pool.query<{ attname: string; attstorage: string }>(
      `select attrelid::regclass::text || '.' || attname as attname, attstorage from pg_attribute
        where attrelid in ('stored_files'::regclass, 'stored_file_chunks'::regclass)
          and attname in ('bytes', 'preview')
        order by 1`,
    );
    expect(storage.rows).toEqual([
      { attname: 'stored_file_chunks.bytes', attstorage: 'e' },
      { attname: 'stored_files.bytes', attstorage: 'e' },
      { attname: 'stored_files.preview', attstorage: 'e' },
    ]);
  });

  it('reads a document stored whole before migration 107 as it was', async () => {
    const sent = await pdfBytes();
    const name = crypto.randomBytes(16).toString('hex');
    await t.pool.query(
      `insert into stored_files (storage_name, bytes, content_type, size)
       values ($1, $2, 'application/pdf', $3)`,
      [name, sent, sent.length],
    );
    expect((await readStoredBytes(t.pool, name))!.equals(sent)).toBe(true);
    const hashed = await t.pool.query<{ joined: Buffer }>(
      'select stored_file_bytes($1) as joined',
      [name],
    );
    expect(hashed.rows[0]!.joined.equals(sent)).toBe(true);
    await t.pool.query('delete from stored_files where storage_name = $1', [name]);
  });

  it('a save judged before a file was held writes nothing; the locked save then answers it', async () => {
    const user = await signedIn(t);
    await save(user.client, 'individual', { answers: { firstName: 'Jane' }, baseRevision: 0 });
    // What a save reads first: the application and its files, in one statement.
    const judged = await findApplicationForSave(t.pool, user.id, 'individual');
    expect(judged).toMatchObject({ revision: 1, status: 'draft', files: [] });
    // Meanwhile another window holds a file: the revision moves.
    const uploaded = await upload(user.client, 'individual', '/irsFormW2', pdfPart(samplePdf));
    expect((uploaded.json() as { revision: number }).revision).toBe(2);
    const written = await saveAnswersAtRevision(t.pool, judged!.id, judged!.revision, {
      answers: { firstName: 'Janet' },
      schemaHash: judged!.schemaHash,
      agreementsSignedAt: {},
    });
    expect(written).toBeNull();
    const application = await load(user.client, 'individual');
    expect(application).toMatchObject({ revision: 2, answers: { firstName: 'Jane' } });
    expect(application?.answers.irsFormW2).toEqual(application?.files['/irsFormW2']);
    expect((await findApplicationForSave(t.pool, user.id, 'individual'))?.files).toEqual([
      {
        pointer: '/irsFormW2',
        storageName: expect.stringMatching(/^[a-f0-9]{32}$/),
        name: 'w2.pdf',
        type: 'application/pdf',
        size: samplePdf.length,
      },
    ]);
    // The browser's save from revision 1 is told of the change, as before.
    const stale = await save(user.client, 'individual', {
      answers: { firstName: 'Janet' },
      baseRevision: 1,
    });
    expect(stale.statusCode).toBe(409);
  });

  it('refuses a file for a question that does not exist or takes no file', async () => {
    const user = await signedIn(t);
    for (const pointer of ['/nope', '/firstName', '/mailingAddress']) {
      const response = await upload(user.client, 'individual', pointer, pdfPart(samplePdf));
      expect(response.statusCode).toBe(400);
      expect((response.json() as { errorMessage: string }).errorMessage).toBe(
        `This form has no file question at ${pointer}.`,
      );
    }
    const noPointer = await postForm(user.client, FILES('individual'), [pdfPart(samplePdf)]);
    expect(noPointer.statusCode).toBe(400);
    expect((noPointer.json() as { errorMessage: string }).errorMessage).toMatch(/pointer/);
    const deleted = await user.client.request('DELETE', `${FILES('individual')}?pointer=/nope`);
    expect(deleted.statusCode).toBe(400);
    expect(await load(user.client, 'individual')).toBeNull();
  });

  it("refuses a file of the wrong type with the question's message beside it", async () => {
    const user = await signedIn(t);
    const png = await pngBytes();
    const response = await upload(user.client, 'individual', '/irsFormW2', pngPart(png, 'w2.png'));
    expect(response.statusCode).toBe(400);
    const message =
      'The file for Copy of your most recent IRS Form W-2 (PDF) is not a readable PDF.';
    expect(response.json()).toEqual({
      errorMessage: message,
      code: 'upload_refused',
      errors: { '/irsFormW2': message },
    });
    const photo = await upload(user.client, 'individual', '/photoId', pdfPart(samplePdf, 'id.pdf'));
    expect(photo.statusCode).toBe(400);
    expect((photo.json() as { errors: Record<string, string> }).errors['/photoId']).toMatch(
      /must be an image/,
    );
    expect((await load(user.client, 'individual'))?.files ?? {}).toEqual({});
  });

  it("refuses an oversize file with the schema's message", async () => {
    const user = await signedIn(t);
    const big = await largePdf(11);
    const response = await upload(user.client, 'individual', '/irsFormW2', pdfPart(big));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      errorMessage: 'The file must be at most 10 MB',
      code: 'payload_too_large',
      errors: { '/irsFormW2': 'The file must be at most 10 MB' },
    });
    expect((await load(user.client, 'individual'))?.files ?? {}).toEqual({});
  });

  it('a submission takes the files the application holds, then refuses further changes', async () => {
    const user = await signedIn(t);
    const png = await pngBytes();
    const w2 = await pdfBytes();
    for (const [pointer, part] of [
      ['/photoId', pngPart(png)],
      ['/photoIdBack', pngPart(png, 'back.png')],
      ['/irsFormW2', pdfPart(w2)],
    ] as const) {
      expect((await upload(user.client, 'individual', pointer, part)).statusCode).toBe(200);
    }
    const held = await load(user.client, 'individual');
    const answers: Answers = {
      ...individualAnswers(),
      primaryEmailAddress: user.email,
      ...held!.answers,
    };
    const body = await submissionWithoutFiles(answers);
    await giveEsignConsent(user.client); // as the page asks before the first signature
    const submitted = await user.client.request('POST', URL_INDIVIDUAL, {
      payload: body.payload,
      headers: { 'content-type': body.type },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const { registrationId } = submitted.json() as { registrationId: string };
    const documents = await t.pool.query<{ part: string; bytes: Buffer; original_name: string }>(
      `select d.part, stored_file_bytes(f.storage_name) as bytes, d.original_name from registration_documents d
         join stored_files f using (storage_name)
        where d.registration_id = $1 and d.part in ('photoId', 'photoIdBack', 'irsFormW2')
        order by d.part`,
      [registrationId],
    );
    expect(documents.rows.map((row) => [row.part, sha256(row.bytes), row.original_name])).toEqual([
      ['irsFormW2', sha256(w2), 'w2.pdf'],
      ['photoId', sha256(png), 'front.png'],
      ['photoIdBack', sha256(png), 'back.png'],
    ]);
    const application = await load(user.client, 'individual');
    expect(application?.status).toBe('submitted');
    // One event for the submission, naming the application it came from (issue 26: the console
    // showed "application.submitted" beside "Submitted").
    const events = await auditRows(t, 'registration.submitted');
    const submittedEvents = events.filter((row) => row.registration_id === registrationId);
    expect(submittedEvents).toHaveLength(1);
    expect(typeof submittedEvents[0]!.detail.applicationId).toBe('string');
    expect(await auditRows(t, 'application.submitted')).toEqual([]);

    const afterSave = await save(user.client, 'individual', {
      answers: application!.answers,
      baseRevision: application!.revision,
    });
    expect(afterSave.statusCode).toBe(409);
    expect((afterSave.json() as { errorMessage: string }).errorMessage).toBe(
      'This application has been submitted and is awaiting review, so it can no longer be changed.',
    );
    const afterFile = await upload(user.client, 'individual', '/irsFormW2', pdfPart(w2));
    expect(afterFile.statusCode).toBe(409);
    const afterDelete = await user.client.request(
      'DELETE',
      `${FILES('individual')}?pointer=/irsFormW2`,
    );
    expect(afterDelete.statusCode).toBe(409);

    // Under a change request the marked document is replaced; the registration keeps its bytes.
    const staff = await signedInStaff(t);
    const requested = await staff.client.post(
      '/exchange/api/admin/onboarding/kyc-changes-request',
      {
        registrationId,
        fields: [{ path: '/irsFormW2', note: 'Blurry' }],
      },
    );
    expect(requested.statusCode, requested.body).toBe(200);
    const unmarked = await upload(user.client, 'individual', '/photoId', pngPart(png));
    expect(unmarked.statusCode).toBe(409);
    expect((unmarked.json() as { errorMessage: string }).errorMessage).toMatch(
      /^Image of the front of your ID \(for a passport, its photo page\) was not among the changes requested/,
    );
    const newW2 = await largePdf(1);
    const marked = await upload(user.client, 'individual', '/irsFormW2', pdfPart(newW2));
    expect(marked.statusCode, marked.body).toBe(200);
    const still = await t.pool.query<{ bytes: Buffer }>(
      `select stored_file_bytes(f.storage_name) as bytes from registration_documents d join stored_files f using (storage_name)
        where d.registration_id = $1 and d.part = 'irsFormW2'`,
      [registrationId],
    );
    expect(sha256(still.rows[0]!.bytes)).toBe(sha256(w2));
  });
});

/** The individual form as compliance staff might change it: one question reworded, one new and required, one removed, one narrowed, the W-2 no longer asked. */
function changedIndividualForms(): FormCatalog {
  const sources = projectSources();
  const schema = sources.forms.individual!.schema as JsonSchema;
  const properties = schema.properties!;
  properties.firstName = { ...properties.firstName, title: 'Legal first name' };
  properties.taxResidenceCountry = {
    type: 'string',
    title: 'Country of tax residence',
    'x-section': 'personalData',
  };
  delete properties.secondaryEmailAddress;
  delete properties.irsFormW2;
  properties.lastName = { ...properties.lastName, maxLength: 3 };
  schema.required = [
    ...schema.required!.filter((key) => key !== 'irsFormW2'),
    'taxResidenceCountry',
  ];
  // The person form too: the account's routes read the person's details by it (app.forms).
  const { forms, problems } = compileForms(sources, ['individual', 'person']);
  expect(problems).toEqual([]);
  return forms;
}

describe('applications on the server: a newer version of the form', () => {
  const t = testAppForBlock();
  let changed: FastifyInstance;
  beforeAll(async () => {
    // The same database served by the working tree's schemas after a change was deployed.
    changed = await buildApp({
      config: t.config,
      pool: t.pool,
      mailer: t.mailer,
      forms: changedIndividualForms(),
      logger: false,
    });
    await changed.ready();
  });
  afterAll(async () => changed?.close());

  it('carries answers by pointer and says once what was added, reworded and dropped', async () => {
    const user = await signedIn(t);
    const answers = individualAnswers();
    expect((await save(user.client, 'individual', { answers, baseRevision: 0 })).statusCode).toBe(
      200,
    );
    expect(
      (await upload(user.client, 'individual', '/irsFormW2', pdfPart(samplePdf))).statusCode,
    ).toBe(200);
    const before = await load(user.client, 'individual');
    expect(before?.carriedOver).toBeNull();

    const client = new TestClient(changed);
    for (const [name, value] of user.client.cookies) client.cookies.set(name, value);
    const application = await load(client, 'individual');
    expect(application?.schemaHash).toBe(changed.forms.get('individual')!.hash);
    expect(application?.schemaHash).not.toBe(before?.schemaHash);
    expect(application?.carriedOver).toEqual({
      added: ['Country of tax residence'],
      reworded: ['Legal first name'],
      dropped: [
        'Last name',
        'Secondary email address (optional)',
        'Copy of your most recent IRS Form W-2 (PDF)',
      ],
    });
    const kept = { ...answers };
    delete kept.lastName;
    delete kept.secondaryEmailAddress;
    expect(application?.answers).toEqual(kept);
    expect(application?.files).toEqual({});
    expect(application?.revision).toBe(before!.revision + 1);

    // Told until the applicant saves; a save from before the carry-over is stale.
    expect((await load(client, 'individual'))?.carriedOver).not.toBeNull();
    const stale = await save(client, 'individual', { answers, baseRevision: before!.revision });
    expect(stale.statusCode).toBe(409);
    const saved = await save(client, 'individual', {
      answers: { ...kept, taxResidenceCountry: 'US' },
      baseRevision: application!.revision,
    });
    expect(saved.statusCode).toBe(200);
    const after = await load(client, 'individual');
    expect(after?.carriedOver).toBeNull();
    expect(after?.answers.socialSecurityNumber).toBe('123-45-6789');
    expect(after?.answers.taxResidenceCountry).toBe('US');
  });
});
