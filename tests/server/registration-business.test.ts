import fs from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedDocuments, toPayload } from '../../src/shared/forms/payload/payload';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { giveEsignConsent, postFormData, signedIn } from './authHelpers';
import { storedFiles } from './registrationHelpers';
import { openRegistrationAnswers } from '../../src/server/fieldEncryption/registrationSealing';
import { createTestApp, type TestApp, type TestClient } from './testApp';
import { testForm } from '../forms';

const URL_BUSINESS = '/exchange/api/web/registration/business';
const samplePdf = new Uint8Array(fs.readFileSync('assets/pdfs/terms-of-service.pdf'));
const pdfBlob = () => new Blob([samplePdf], { type: 'application/pdf' });
let png: Buffer;
const pngBlob = () => new Blob([new Uint8Array(png)], { type: 'image/png' });

const pdfRef = (name: string) => ({ name, type: 'application/pdf', size: samplePdf.length });
const FILE_ANSWERS = [
  'certificateOfInc',
  'corporateOrgChart',
  'w8orw9',
  'corporateGuarantee',
  'solicitation',
  'bylawsOrLLCAgreement',
  'authorizationForm',
] as const;

/** The example answers, with file references matching the bytes sent; a scanned ID as a PDF. */
function businessAnswers(email: string): Answers {
  const answers: Answers = {
    ...structuredClone(testForm('business').example),
    email,
    photoId: { name: 'passport.png', type: 'image/png', size: png.length },
    signerAuthorization: 'no',
  };
  for (const key of FILE_ANSWERS) answers[key] = pdfRef(`${key}.pdf`);
  return answers;
}

function filesFor(answers: Answers, overrides: Record<string, Blob> = {}): Record<string, Blob> {
  const files: Record<string, Blob> = { '/photoId': pngBlob() };
  for (const key of FILE_ANSWERS) if (answers[key]) files[`/${key}`] = pdfBlob();
  return { ...files, ...overrides };
}

function businessForm(answers: Answers, overrides: Record<string, Blob> = {}): FormData {
  const documents = Object.fromEntries(
    signedDocuments(testForm('business')).map((d) => [d.url, pdfBlob()]),
  );
  return toPayload(testForm('business'), answers, filesFor(answers, overrides), documents);
}

/** Submits as the page does: the e-sign consent given before the first signature. */
async function submit(client: TestClient, form: FormData) {
  await giveEsignConsent(client);
  return postFormData(client, URL_BUSINESS, form);
}

async function countFor(t: TestApp, userId: string) {
  const result = await t.pool.query<{ registrations: number; persons: number; documents: number }>(
    `select (select count(*)::int from registrations where user_id = $1) as registrations,
            (select count(*)::int from registration_persons p join registrations r
               on r.id = p.registration_id where r.user_id = $1) as persons,
            (select count(*)::int from registration_documents d join registrations r
               on r.id = d.registration_id where r.user_id = $1) as documents`,
    [userId],
  );
  const user = await t.pool.query(
    'select organization_id, roles, details from users where id = $1',
    [userId],
  );
  return { ...result.rows[0]!, user: user.rows[0] };
}

describe('POST registration/business', () => {
  let t: TestApp;
  beforeAll(async () => {
    png = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#556677' } })
      .png()
      .toBuffer();
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('stores the registration, one row per affiliated person, every document and the Administrator role', async () => {
    const { client, email, id } = await signedIn(t);
    const response = await submit(client, businessForm(businessAnswers(email)));
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.user.details).toMatchObject({
      firstName: 'Daniel',
      lastName: 'Okafor',
      phoneNumber: '+12125550187',
      approved: false,
    });
    // Clearing ids from the one sequence (NCF- and six digits), as for individuals.
    expect(body.user.orgDetails.clearingOrgId).toMatch(/^NCF-\d{6}$/);
    // The applicant is emailed that the registration was received, without what they sent.
    const receipt = t.mailer.outbox().find((m) => m.to === email && /received/i.test(m.subject));
    expect(receipt?.text).toContain('your application has been received');
    for (const secret of ['123-45-6789', '02/03/1975']) {
      expect(`${receipt!.subject} ${receipt!.text}`).not.toContain(secret);
    }

    const registration = await t.pool.query(
      `select r.id, r.form_id, r.schema_hash, r.answers, r.payload, o.kind, o.name
         from registrations r join organizations o on o.id = r.organization_id where r.user_id = $1`,
      [id],
    );
    const row = registration.rows[0];
    expect(row.form_id).toBe('business');
    expect(row.schema_hash).toBe(testForm('business').hash);
    expect(row.kind).toBe('business');
    expect(row.name).toBe('Granite Ridge Mining Co.');
    expect(row.payload.clearingRegistration.userInfo.email.value).toBe(email);
    expect(row.payload.clearingRegistration.userInfo.signature.value).toBe('Daniel Okafor');
    // Stored sealed; read through the one reader.
    expect(openRegistrationAnswers(t.app.fieldKeys, row.id, row.answers)).toMatchObject({
      affiliatedPersons: [{ ssn: '123-45-6789' }, { passportNumber: 'PA1234567' }],
    });

    const persons = await t.pool.query(
      `select position, first_name, last_name, title, ownership_percent, is_direct, answers
         from registration_persons where registration_id = $1 order by position`,
      [row.id],
    );
    expect(persons.rows.map((p) => [p.position, p.first_name, p.last_name, p.is_direct])).toEqual([
      [0, 'Daniel', 'Okafor', true],
      [1, 'Amelia', 'Hart', false],
    ]);
    expect(persons.rows[1].ownership_percent).toBe(60);
    expect(persons.rows[1].answers.passportCountryOfIssuance).toBe('AU');

    const documents = await t.pool.query(
      'select part, content_type from registration_documents where registration_id = $1',
      [row.id],
    );
    const parts = documents.rows.map((d: { part: string }) => d.part).sort();
    expect(parts).toEqual(
      [
        'photoId',
        ...FILE_ANSWERS,
        ...signedDocuments(testForm('business')).map((d) => d.part),
      ].sort(),
    );

    const counts = await countFor(t, id);
    expect(counts.user.roles).toEqual(['Administrator']);
    expect(counts.user.organization_id).toBeTruthy();
  });

  it('takes the email from the session, not from the payload', async () => {
    const { client, email, id } = await signedIn(t);
    const answers = { ...businessAnswers(email), email: 'someone.else@example.test' };
    expect((await submit(client, businessForm(answers))).statusCode).toBe(201);
    const stored = await t.pool.query('select answers from registrations where user_id = $1', [id]);
    expect(stored.rows[0].answers.email).toBe(email);
  });

  it('accepts a scanned photo ID as a PDF', async () => {
    const { client, email } = await signedIn(t);
    const answers = { ...businessAnswers(email), photoId: pdfRef('id-scan.pdf') };
    const response = await submit(client, businessForm(answers, { '/photoId': pdfBlob() }));
    expect(response.statusCode).toBe(201);
  });

  it('refuses direct ownership over 100 % at the list, naming the total (issue 37)', async () => {
    const { client, email, id } = await signedIn(t);
    const answers = businessAnswers(email);
    const persons = answers.affiliatedPersons as Answers[];
    persons[0]!.ownershipPercent = 60;
    persons[1]!.isDirect = 'direct';
    persons[1]!.ownershipPercent = 60;
    const response = await submit(client, businessForm(answers));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      errorMessage: 'Some answers need attention.',
      code: 'validation_failed',
      errors: {
        '/affiliatedPersons':
          'The direct ownership of the persons listed adds up to 120 %; it can be at most 100 %',
      },
    });
    expect((await countFor(t, id)).registrations).toBe(0);
  });

  it('refuses invalid answers with the schema messages, array errors prefixed, storing nothing', async () => {
    const { client, email, id } = await signedIn(t);
    const before = await storedFiles(t);
    const answers = businessAnswers(email);
    const persons = answers.affiliatedPersons as Answers[];
    delete persons[0]!.ssn;
    persons[1]!.addressLocality = '';
    answers.bizEmail = 'not-an-email';
    const response = await submit(client, businessForm(answers));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      errorMessage: 'Some answers need attention.',
      code: 'validation_failed',
      errors: {
        '/bizEmail': 'Invalid email',
        '/affiliatedPersons/0/ssn': 'Affiliated person 1: SSN required',
        '/affiliatedPersons/1/addressLocality': 'Affiliated person 2: City is required',
      },
    });
    expect(await storedFiles(t)).toEqual(before);
    const counts = await countFor(t, id);
    expect([counts.registrations, counts.persons, counts.documents]).toEqual([0, 0, 0]);
    expect(counts.user.details).toBeNull();
  });

  it('refuses a file that is not a PDF, naming the field by its prompt', async () => {
    const { client, email, id } = await signedIn(t);
    const before = await storedFiles(t);
    const response = await submit(
      client,
      businessForm(businessAnswers(email), { '/certificateOfInc': pngBlob() }),
    );
    expect(response.statusCode).toBe(400);
    const prompt = testForm('business').schema.properties!.certificateOfInc!.title!;
    const message = `The file for ${prompt} is not a readable PDF.`;
    expect(response.json()).toEqual({
      errorMessage: message,
      code: 'upload_refused',
      errors: { '/certificateOfInc': message },
    });
    expect(await storedFiles(t)).toEqual(before);
    expect((await countFor(t, id)).registrations).toBe(0);
  });

  it('stores a duplicate submission once', async () => {
    const { client, email, id } = await signedIn(t);
    const answers = businessAnswers(email);
    const [first, second] = await Promise.all([
      submit(client, businessForm(answers)),
      submit(client, businessForm(answers)),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 201]);
    expect(first.json().registrationId).toBe(second.json().registrationId);
    const counts = await countFor(t, id);
    expect(counts.registrations).toBe(1);
    expect(counts.persons).toBe(2);
    expect(counts.documents).toBe(
      1 + FILE_ANSWERS.length + signedDocuments(testForm('business')).length,
    );
    const organizations = await t.pool.query(
      `select count(*)::int as n from organizations where name = 'Granite Ridge Mining Co.'
         and id in (select organization_id from users where id = $1)`,
      [id],
    );
    expect(organizations.rows[0].n).toBe(1);
  });

  it('stores nothing when a step of the transaction fails', async () => {
    const { client, email, id } = await signedIn(t);
    const before = await storedFiles(t);
    const organizationsBefore = await t.pool.query('select count(*)::int as n from organizations');
    // The second person's row fails to insert, after the registration and first person did.
    await t.pool.query(`
      create or replace function fail_second_person() returns trigger language plpgsql as $$
      begin
        if new.position = 1 and new.first_name = 'Failing' then raise exception 'forced'; end if;
        return new;
      end $$;
      create trigger fail_second_person before insert on registration_persons
        for each row execute function fail_second_person();`);
    try {
      const answers = businessAnswers(email);
      (answers.affiliatedPersons as Answers[])[1]!.firstName = 'Failing';
      const response = await submit(client, businessForm(answers));
      expect(response.statusCode).toBe(500);
    } finally {
      await t.pool.query('drop trigger fail_second_person on registration_persons');
    }
    const counts = await countFor(t, id);
    expect([counts.registrations, counts.persons, counts.documents]).toEqual([0, 0, 0]);
    expect(counts.user.organization_id).toBeNull();
    expect(counts.user.roles).toEqual([]);
    const organizationsAfter = await t.pool.query('select count(*)::int as n from organizations');
    expect(organizationsAfter.rows[0].n).toBe(organizationsBefore.rows[0].n);
    expect(await storedFiles(t)).toEqual(before);
  });

  it('drops answers and files a condition hides before storing them', async () => {
    const { client, email, id } = await signedIn(t);
    // A signatory needs no signer form; 'not a member' answered no needs no explanation.
    const answers = {
      ...businessAnswers(email),
      signerAuthorization: 'yes',
      nfaBylaw1101: {
        ...(testForm('business').example.nfaBylaw1101 as Answers),
        notCftcOrNfaMember: false,
      },
    };
    const form = businessForm(answers);
    // The browser leaves them out; a crafted request carrying them must not reach the database.
    const payload = JSON.parse(String(form.get('clearingRegistration')));
    const business = payload.businessInfo;
    business.authorizationForm = {
      prompt: 'Signer form',
      value: pdfRef('a.pdf'),
      part: 'authorizationForm',
    };
    business.nfaBylaw1101.value.notCftcOrNfaMemberExplain = { prompt: 'Why', value: 'stale text' };
    form.set('clearingRegistration', JSON.stringify(payload));
    form.append('authorizationForm', pdfBlob(), 'a.pdf');
    const before = await storedFiles(t);
    const response = await submit(client, form);
    expect(response.statusCode).toBe(201);

    const stored = await t.pool.query(
      'select id, answers, payload from registrations where user_id = $1',
      [id],
    );
    const row = stored.rows[0];
    expect(row.answers).not.toHaveProperty('authorizationForm');
    expect(row.answers.nfaBylaw1101).not.toHaveProperty('notCftcOrNfaMemberExplain');
    expect(JSON.stringify(row.payload)).not.toContain('stale text');
    const documents = await t.pool.query(
      'select part from registration_documents where registration_id = $1',
      [row.id],
    );
    expect(documents.rows.map((d: { part: string }) => d.part)).not.toContain('authorizationForm');
    // Only the stored documents' files remain: the dropped upload was deleted.
    expect((await storedFiles(t)).length - before.length).toBe(documents.rowCount);
  });

  it('refuses an individual payload sent to the business route', async () => {
    const { client } = await signedIn(t);
    const form = new FormData();
    form.append('formId', 'individual');
    form.append('schemaHash', testForm('business').hash);
    form.append('clearingRegistration', '{}');
    const response = await submit(client, form);
    expect(response.statusCode).toBe(400);
    expect(response.json().errorMessage).toBe('This submission is not a business registration.');
  });
});
