import fs from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedDocuments, toPayload } from '../../src/shared/forms/payload/payload';
import { deref } from '../../src/shared/forms/walk/schemaWalk';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { giveEsignConsent, postFormData, signedIn } from './authHelpers';
import { storedFiles } from './registrationHelpers';
import { createTestApp, type TestApp } from './testApp';
import { openRegistrationAnswers } from '../../src/server/fieldEncryption/registrationSealing';
import type { TestClient } from './testApp';
import { testForm } from '../forms';

const URL_INDIVIDUAL = '/exchange/api/web/registration/individual';
const samplePdf = new Uint8Array(fs.readFileSync('assets/pdfs/terms-of-service.pdf'));

let png: Buffer;
const pdfBlob = () => new Blob([samplePdf], { type: 'application/pdf' });
const pngBlob = () => new Blob([new Uint8Array(png)], { type: 'image/png' });

function answersFor(email: string): Answers {
  const example = structuredClone(testForm('individual').example) as Answers;
  return {
    ...example,
    primaryEmailAddress: email,
    photoId: { name: 'front.png', type: 'image/png', size: png.length },
    photoIdBack: { name: 'back.png', type: 'image/png', size: png.length },
    irsFormW2: { name: 'w2.pdf', type: 'application/pdf', size: samplePdf.length },
  };
}

function documentsBlobs(): Record<string, Blob> {
  return Object.fromEntries(signedDocuments(testForm('individual')).map((d) => [d.url, pdfBlob()]));
}

/** Submits as the page does: the e-sign consent given before the first signature. */
async function submit(client: TestClient, form: FormData) {
  await giveEsignConsent(client);
  return postFormData(client, URL_INDIVIDUAL, form);
}

function validForm(answers: Answers, overrides: Record<string, Blob> = {}): FormData {
  return toPayload(
    testForm('individual'),
    answers,
    { '/photoId': pngBlob(), '/photoIdBack': pngBlob(), '/irsFormW2': pdfBlob(), ...overrides },
    documentsBlobs(),
  );
}

/** Every stored document (the database's copies) and every spooled upload left on disk. */
describe('POST registration/individual', () => {
  let t: TestApp;
  beforeAll(async () => {
    png = await sharp({
      create: { width: 32, height: 20, channels: 3, background: '#8899aa' },
    })
      .png()
      .toBuffer();
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('stores a valid submission with every prompt, value and document, and sets the user details', async () => {
    const { client, email, id } = await signedIn(t);
    const response = await submit(client, validForm(answersFor(email)));
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.user.details).toMatchObject({ firstName: 'Jane', approved: false });
    expect(body.user.orgDetails.clearingOrgId).toMatch(/^NCF-\d{6}$/);

    const stored = await t.pool.query(
      'select id, form_id, schema_hash, answers, payload, status, submitted_from_ip from registrations where user_id = $1',
      [id],
    );
    const row = stored.rows[0];
    expect(row.form_id).toBe('individual');
    expect(row.schema_hash).toBe(testForm('individual').hash);
    expect(row.status).toBe('submitted');
    expect(row.submitted_from_ip).toBeTruthy();
    // Stored sealed (encrypted at rest); read through the one reader.
    expect(row.answers.socialSecurityNumber).toHaveProperty('$sealed');
    expect(openRegistrationAnswers(t.app.fieldKeys, row.id, row.answers).socialSecurityNumber).toBe(
      '123-45-6789',
    );
    // Prompts come from the schema titles.
    const schema = testForm('individual').schema;
    expect(row.payload.userInfo.firstName).toEqual({
      prompt: deref(schema.properties!.firstName!, schema).title,
      value: 'Jane',
    });
    expect(Object.keys(row.payload.individualInfo)).toContain('details');

    const documents = await t.pool.query(
      `select part, content_type from registration_documents d join registrations r on r.id = d.registration_id
        where r.user_id = $1 order by part`,
      [id],
    );
    const parts = documents.rows.map((d: { part: string }) => d.part);
    expect(parts).toEqual(
      expect.arrayContaining([
        'photoId',
        'photoIdBack',
        'irsFormW2',
        ...signedDocuments(testForm('individual')).map((d) => d.part),
      ]),
    );
    expect(documents.rowCount).toBe(3 + signedDocuments(testForm('individual')).length);
    expect(documents.rows.find((d: { part: string }) => d.part === 'photoId').content_type).toBe(
      'image/png',
    );

    const me = await client.get('/exchange/api/web/user');
    expect(me.json().organizationId).toBeTruthy();
  });

  it('refuses invalid answers with per-field messages from the schema and stores nothing', async () => {
    const { client, email, id } = await signedIn(t);
    const before = await storedFiles(t);
    const answers = answersFor(email);
    answers.mailingAddress = { ...(answers.mailingAddress as object), postalCode: '123' };
    const response = await submit(client, validForm(answers));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors['/mailingAddress/postalCode']).toBe(
      'Postal code must be 5 digits.',
    );
    const count = await t.pool.query(
      'select count(*)::int as n from registrations where user_id = $1',
      [id],
    );
    expect(count.rows[0].n).toBe(0);
    expect(await storedFiles(t)).toEqual(before);
    const me = await client.get('/exchange/api/web/user');
    expect(me.json().details).toBeNull();
  });

  it('refuses a renamed .exe sent as the photo ID', async () => {
    const { client, email } = await signedIn(t);
    const before = await storedFiles(t);
    const exe = new Blob([Buffer.from('MZ\x90\x00 this is not an image')], { type: 'image/png' });
    const response = await submit(client, validForm(answersFor(email), { '/photoId': exe }));
    expect(response.statusCode).toBe(400);
    // Issue 11: the message names the field by its prompt, never by its key.
    const prompt = testForm('individual').schema.properties!.photoId!.title!;
    expect(response.json().errorMessage).toBe(
      `The file for ${prompt} must be an image (JPEG, PNG, WebP or HEIC).`,
    );
    expect(await storedFiles(t)).toEqual(before);
  });

  it('refuses an oversize file', async () => {
    const small = await createTestApp();
    try {
      const { client, email } = await signedIn(small);
      const huge = new Blob([Buffer.alloc(21 * 1024 * 1024, 1)], { type: 'application/pdf' });
      const response = await submit(client, validForm(answersFor(email), { '/irsFormW2': huge }));
      expect(response.statusCode).toBe(413);
      expect(response.json().errorMessage).toMatch(/too large/);
      expect(await storedFiles(small)).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('stores a duplicate submission once and answers it like the first', async () => {
    const { client, email, id } = await signedIn(t);
    const answers = answersFor(email);
    const [first, second] = await Promise.all([
      submit(client, validForm(answers)),
      submit(client, validForm(answers)),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 201]);
    expect(first.json().registrationId).toBe(second.json().registrationId);
    const count = await t.pool.query(
      'select count(*)::int as n from registrations where user_id = $1',
      [id],
    );
    expect(count.rows[0].n).toBe(1);
    const orgs = await t.pool.query(
      `select count(*)::int as n from organizations where name = 'Jane O''Neill'
         and id in (select organization_id from registrations where user_id = $1)`,
      [id],
    );
    expect(orgs.rows[0].n).toBe(1);
    const documents = await t.pool.query(
      'select count(*)::int as n from registration_documents d join registrations r on r.id = d.registration_id where r.user_id = $1',
      [id],
    );
    expect(documents.rows[0].n).toBe(3 + signedDocuments(testForm('individual')).length);
  });

  it('refuses a different second submission with 409', async () => {
    const { client, email } = await signedIn(t);
    expect((await submit(client, validForm(answersFor(email)))).statusCode).toBe(201);
    const changed = { ...answersFor(email), firstName: 'Janet' };
    const response = await submit(client, validForm(changed));
    expect(response.statusCode).toBe(409);
    expect(response.json().errorMessage).toMatch(/already submitted/);
  });

  it('refuses a submission answered under another schema version', async () => {
    const { client, email } = await signedIn(t);
    const form = validForm(answersFor(email));
    form.set('schemaHash', 'stale');
    const response = await submit(client, form);
    expect(response.statusCode).toBe(409);
    expect(response.json().errorMessage).toMatch(/reload the page/);
  });

  it('refuses a file answer whose bytes are missing, and a signed-out caller', async () => {
    const { client, email } = await signedIn(t);
    const form = validForm(answersFor(email));
    form.delete('irsFormW2');
    const response = await submit(client, form);
    expect(response.statusCode).toBe(400);
    const prompt = testForm('individual').schema.properties!.irsFormW2!.title!;
    expect(response.json().errorMessage).toBe(`The file for ${prompt} is missing from the upload.`);
    expect(response.json().errorMessage).not.toMatch(/irsFormW2/);

    await client.post('/exchange/api/web/auth/signout');
    const signedOut = await submit(client, validForm(answersFor(email)));
    expect(signedOut.statusCode).toBe(401);
  });

  it('drops answers a condition hides before storing them (numberOfDependents when not married)', async () => {
    const { client, email, id } = await signedIn(t);
    const answers = { ...answersFor(email), marriedStatus: false, numberOfDependents: 3 };
    // The browser drops it too; a crafted payload carrying it must not reach the database.
    const form = validForm(answers);
    const info = JSON.parse(String(form.get('individualInfo')));
    info.details.questionnaire.numberOfDependents = { prompt: 'Number of dependents', value: 3 };
    form.set('individualInfo', JSON.stringify(info));
    const response = await submit(client, form);
    expect(response.statusCode).toBe(201);
    const stored = await t.pool.query(
      'select answers, payload from registrations where user_id = $1',
      [id],
    );
    expect(stored.rows[0].answers.marriedStatus).toBe(false);
    expect(stored.rows[0].answers).not.toHaveProperty('numberOfDependents');
    expect(JSON.stringify(stored.rows[0].payload)).not.toContain('numberOfDependents');
  });

  it('trims the spaces at the ends of text answers before validating and storing them', async () => {
    const { client, email, id } = await signedIn(t);
    const example = answersFor(email);
    const answers = {
      ...example,
      firstName: '  Jane ',
      // A US postal code is digits only: with its spaces it would be refused.
      mailingAddress: { ...(example.mailingAddress as Answers), postalCode: ' 10118 ' },
    };
    const response = await submit(client, validForm(answers));
    expect(response.statusCode).toBe(201);
    const stored = await t.pool.query('select answers from registrations where user_id = $1', [id]);
    expect(stored.rows[0].answers.firstName).toBe('Jane');
    expect(stored.rows[0].answers.mailingAddress.postalCode).toBe('10118');
  });

  it('answers malformed sections with 400, never 500', async () => {
    const { client } = await signedIn(t);
    const form = new FormData();
    form.append('formId', 'individual');
    form.append('schemaHash', testForm('individual').hash);
    form.append('userInfo', '{not json');
    form.append('individualInfo', '{}');
    const response = await submit(client, form);
    expect(response.statusCode).toBe(400);
  });
});
