import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resubmitBusiness } from './registrationHelpers';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import type { RegistrationOverview } from '../../src/shared/api/registration';
import type { ApplicationResponse } from '../../src/shared/api/applications';
import { listStatusChanges } from '../../src/server/db/registrationVersions';
import { listRegistrationVersions } from '../../src/server/registration/registrationVersions';
import { registeredBusiness, signedInStaff } from './adminHelpers';
import { pngBytes, postForm } from './authHelpers';
import { createTestApp, testAppForBlock, type TestApp, type TestClient } from './testApp';
import { testForm } from '../forms';

const A = '/exchange/api/admin';
const W8 = '/w8orw9';
const PASSPORT_COUNTRY = '/affiliatedPersons/1/passportCountryOfIssuance';
const samplePdf = fs.readFileSync('assets/pdfs/terms-of-service.pdf');
// Other bytes than every document of the first submission: a replaced tax form.
const newTaxForm = fs.readFileSync('assets/pdfs/risk-disclosures.pdf');
const pdfBlob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)], { type: 'application/pdf' });

describe('changes requested field by field, and resubmitted (issue 17)', () => {
  let t: TestApp;
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  let applicant: Awaited<ReturnType<typeof registeredBusiness>>;
  let requestedAt: Date;

  beforeAll(async () => {
    t = await createTestApp();
    staff = await signedInStaff(t);
    applicant = await registeredBusiness(t);
  });
  afterAll(async () => t.close());

  const overview = async () =>
    (await applicant.client.get('/exchange/api/web/registration')).json() as RegistrationOverview;

  it('refuses a pointer that names no question of the registration, naming it', async () => {
    for (const path of [
      '/affiliatedPersons/7/passportCountryOfIssuance',
      '/affiliatedPersons/0/favouriteColour',
      '/nothing',
      '',
      'w8orw9',
    ]) {
      const response = await staff.client.post(`${A}/onboarding/kyc-changes-request`, {
        registrationId: applicant.registrationId,
        fields: [{ path, note: 'Please fix.' }],
      });
      expect(response.statusCode, path).toBe(400);
      expect(response.json().errorMessage).toBe(
        `${JSON.stringify(path)} names no question of this registration's form.`,
      );
    }
    const empty = await staff.client.post(`${A}/onboarding/kyc-changes-request`, {
      registrationId: applicant.registrationId,
      fields: [],
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errorMessage).toBe('Please say what the applicant should change.');
    expect((await overview()).registration?.status).toBe('submitted');
  });

  it('requests changes on the tax form and a person’s passport country: stored, shown by prompt, emailed without the notes', async () => {
    requestedAt = new Date();
    const response = await staff.client.post(`${A}/onboarding/kyc-changes-request`, {
      registrationId: applicant.registrationId,
      note: 'Two things to fix, then we can decide.',
      fields: [
        { path: W8, note: 'The scan is blurred; please upload a sharper copy.' },
        { path: PASSPORT_COUNTRY, note: 'The passport was issued by New Zealand.' },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'changes_requested' });

    const { registration } = await overview();
    expect(registration?.status).toBe('changes_requested');
    expect(registration?.changeRequest).toEqual({
      note: 'Two things to fix, then we can decide.',
      fields: [
        {
          path: W8,
          prompt: testForm('business').schema.properties!.w8orw9!.title,
          note: 'The scan is blurred; please upload a sharper copy.',
        },
        {
          path: PASSPORT_COUNTRY,
          prompt: 'Affiliated person 2: Passport country of issuance',
          note: 'The passport was issued by New Zealand.',
        },
      ],
    });
    expect(registration?.history.map(({ status, by }) => ({ status, by }))).toEqual([
      { status: 'submitted', by: 'applicant' },
      { status: 'changes_requested', by: 'staff' },
    ]);

    const mail = t.mailer
      .outbox()
      .filter((m) => m.to === applicant.email)
      .at(-1)!;
    expect(mail.subject).toMatch(/needs changes/);
    expect(mail.text).toContain('/clearing/home');
    expect(mail.text).not.toContain('New Zealand');
    expect(mail.text).not.toContain('Two things to fix');
    // The questions to change by prompt (issue 38 §5), never an answer; the notes wait on the
    // portal.
    expect(mail.text).toContain(`- ${testForm('business').schema.properties!.w8orw9!.title}`);
    expect(mail.text).toContain('- Affiliated person 2: Passport country of issuance');
    expect(mail.text).toContain("The reviewer's notes are waiting for you on the portal.");
  });

  it('hands the registration back as the application: answers, files held, the request', async () => {
    const response = await applicant.client.get('/exchange/api/web/applications/business');
    expect(response.statusCode).toBe(200);
    const { application } = response.json() as ApplicationResponse;
    expect(application?.status).toBe('changes_requested');
    expect(application?.answers.bizName).toBe(applicant.answers.bizName);
    expect((application?.answers.affiliatedPersons as Answers[])[0]!.ssn).toBe('123-45-6789');
    expect(application?.files[W8]).toEqual({
      name: 'w8orw9.pdf',
      type: 'application/pdf',
      size: samplePdf.length,
    });
    expect(application?.changeRequest?.note).toBe('Two things to fix, then we can decide.');
    expect(application?.changeRequest?.fields.map((field) => field.path)).toEqual([
      W8,
      PASSPORT_COUNTRY,
    ]);
    // The application row holds no plain identifier either.
    const raw = await t.pool.query(
      'select answers::text as text from applications where user_id = $1',
      [applicant.id],
    );
    expect(raw.rows[0].text).not.toContain('123-45-6789');
    // Its files are the registration's stored bytes, not copies.
    const held = await t.pool.query(
      `select count(*)::int as n from application_files f join registration_documents d
          on d.storage_name = f.storage_name where d.registration_id = $1`,
      [applicant.registrationId],
    );
    expect(held.rows[0].n).toBeGreaterThanOrEqual(7);
  });

  it('refuses a change to an answer or a file that was not marked, naming the question', async () => {
    const answers = structuredClone(applicant.answers);
    answers.bizName = 'Another Name LLC';
    const renamed = await resubmitBusiness(applicant.client, answers);
    expect(renamed.statusCode).toBe(409);
    const prompt = testForm('business').schema.properties!.bizName!.title;
    expect(renamed.json().errorMessage).toBe(
      `${prompt} was not among the changes requested; it cannot change.`,
    );

    const person = structuredClone(applicant.answers);
    (person.affiliatedPersons as Answers[])[1]!.passportNumber = 'PB7654321';
    const passport = await resubmitBusiness(applicant.client, person);
    expect(passport.statusCode).toBe(409);
    expect(passport.json().errorMessage).toBe(
      'Affiliated person 2: Passport number was not among the changes requested; it cannot change.',
    );

    const certificate = await resubmitBusiness(
      applicant.client,
      structuredClone(applicant.answers),
      {
        '/certificateOfInc': pdfBlob(newTaxForm),
      },
    );
    expect(certificate.statusCode).toBe(409);
    expect(certificate.json().errorMessage).toMatch(
      /^Certificate of incorporation.*cannot change\.$/,
    );
    expect((await overview()).registration?.status).toBe('changes_requested');
  });

  it('runs the first submission’s validation on a resubmission', async () => {
    const answers = structuredClone(applicant.answers);
    (answers.affiliatedPersons as Answers[])[1]!.passportCountryOfIssuance = 'not a country';
    const response = await resubmitBusiness(applicant.client, answers);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[PASSPORT_COUNTRY]).toBe(
      'Affiliated person 2: Invalid country selected',
    );
  });

  it('resubmits the marked changes: the same registration, a new version with its schema hash, waiting for review again', async () => {
    const answers = structuredClone(applicant.answers);
    (answers.affiliatedPersons as Answers[])[1]!.passportCountryOfIssuance = 'NZ';
    answers.w8orw9 = { name: 'w8-sharper.pdf', type: 'application/pdf', size: newTaxForm.length };
    const response = await resubmitBusiness(applicant.client, answers, {
      [W8]: pdfBlob(newTaxForm),
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().registrationId).toBe(applicant.registrationId);

    const registrations = await t.pool.query(
      'select id, status, change_request from registrations where user_id = $1',
      [applicant.id],
    );
    expect(registrations.rows).toEqual([
      { id: applicant.registrationId, status: 'resubmitted', change_request: null },
    ]);

    const versions = await listRegistrationVersions(
      t.pool,
      applicant.registrationId,
      t.app.fieldKeys,
    );
    expect(versions.map((v) => [v.version, v.schemaHash])).toEqual([
      [1, testForm('business').hash],
      [2, testForm('business').hash],
    ]);
    const country = (v: (typeof versions)[number]) =>
      (v.answers.affiliatedPersons as Answers[])[1]!.passportCountryOfIssuance;
    expect([country(versions[0]!), country(versions[1]!)]).toEqual(['AU', 'NZ']);
    expect(versions[0]!.documents.w8orw9!.name).toBe('w8orw9.pdf');
    expect(versions[1]!.documents.w8orw9!.name).toBe('w8-sharper.pdf');
    expect(versions[0]!.documents.w8orw9!.sha256).not.toBe(versions[1]!.documents.w8orw9!.sha256);
    // Unchanged documents are the same bytes in both versions.
    expect(versions[1]!.documents.certificateOfInc).toEqual(
      versions[0]!.documents.certificateOfInc,
    );

    // The replaced tax form's bytes stay: version 1 names them.
    const kept = await t.pool.query(
      `select count(*)::int as n from stored_files where encode(sha256(stored_file_bytes(storage_name)), 'hex') = $1`,
      [versions[0]!.documents.w8orw9!.sha256],
    );
    expect(kept.rows[0].n).toBeGreaterThan(0);

    // The stored persons row follows the new answers.
    const person = await t.pool.query(
      'select answers from registration_persons where registration_id = $1 and position = 1',
      [applicant.registrationId],
    );
    expect(person.rows[0].answers.passportCountryOfIssuance).toBe('NZ');

    // No version row holds a plain SSN, passport number or date of birth.
    const raw = await t.pool.query(
      'select answers::text as text from registration_versions where registration_id = $1',
      [applicant.registrationId],
    );
    for (const row of raw.rows) {
      for (const plain of ['123-45-6789', 'PA1234567', '11/22/1969']) {
        expect(row.text).not.toContain(plain);
      }
    }

    const queue = await staff.client.get(`${A}/onboarding/organizations?status=resubmitted`);
    expect(queue.json().data.map((r: { registrationId: string }) => r.registrationId)).toContain(
      applicant.registrationId,
    );
    const again = await applicant.client.get('/exchange/api/web/applications/business');
    expect(again.json().application.status).toBe('submitted');
    expect(again.json().application.changeRequest).toBeNull();
  });

  it('records each status with its time and who made it; approval ends it', async () => {
    const approved = await staff.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: applicant.registrationId,
      approved: true,
    });
    expect(approved.json()).toEqual({ status: 'approved' });
    const changes = await listStatusChanges(t.pool, applicant.registrationId);
    expect(changes.map(({ status, changedBy, actor }) => ({ status, changedBy, actor }))).toEqual([
      { status: 'submitted', changedBy: applicant.id, actor: 'applicant' },
      { status: 'changes_requested', changedBy: staff.id, actor: 'staff' },
      { status: 'resubmitted', changedBy: applicant.id, actor: 'applicant' },
      { status: 'approved', changedBy: staff.id, actor: 'staff' },
    ]);
    const times = changes.map((change) => Date.parse(change.changedAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[1]).toBeGreaterThanOrEqual(requestedAt.getTime() - 1000);
    const { registration } = await overview();
    expect(registration?.status).toBe('approved');
    expect(registration?.history).toHaveLength(4);
    expect(registration?.changeRequest).toBeNull();
  });

  it('refuses a second registration from an applicant whose changes are not requested', async () => {
    const other = await registeredBusiness(t);
    const png = await pngBytes();
    const allFiles = Object.fromEntries(
      Object.entries(other.answers)
        .filter(([, value]) => (value as { size?: number } | null)?.size !== undefined)
        .map(([key, value]) => [
          `/${key}`,
          (value as { type: string }).type === 'image/png'
            ? new Blob([new Uint8Array(png)], { type: 'image/png' })
            : pdfBlob(samplePdf),
        ]),
    );
    const response = await resubmitBusiness(
      other.client,
      { ...other.answers, bizName: 'Changed LLC' },
      allFiles,
    );
    expect(response.statusCode).toBe(409);
    expect(response.json().errorMessage).toBe(
      'You have already submitted a registration. It is awaiting review.',
    );
  });
});

/**
 * The one rule of a change request (changeScope's `unrequestedChange`): the autosave, the file
 * routes and the resubmission accept and refuse the same changes.
 */
describe('a change request’s one rule: save, file upload and resubmission agree', () => {
  const APPS = '/exchange/api/web/applications/business';
  const SIGNER = '/signerAuthorization';
  const SIGNER_FORM = '/authorizationForm';
  const CERTIFICATE = '/certificateOfInc';
  const t = testAppForBlock();
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  beforeAll(async () => {
    staff = await signedInStaff(t);
  });

  /** The registration's last version as stored. */
  const latestVersion = async (registrationId: string) =>
    (await listRegistrationVersions(t.pool, registrationId, t.app.fieldKeys)).at(-1)!;

  /** A business registered, then asked for changes on `paths` (none: a note alone). */
  async function askedFor(paths: string[]) {
    const applicant = await registeredBusiness(t);
    const response = await staff.client.post(`${A}/onboarding/kyc-changes-request`, {
      registrationId: applicant.registrationId,
      note: 'Please look again.',
      fields: paths.map((path) => ({ path, note: 'Please fix.' })),
    });
    expect(response.statusCode, response.body).toBe(200);
    return applicant;
  }

  const application = async (client: TestClient) =>
    ((await client.get(APPS)).json() as ApplicationResponse).application!;

  async function save(client: TestClient, change: (answers: Answers) => void) {
    const current = await application(client);
    const answers = structuredClone(current.answers);
    change(answers);
    return client.request('PUT', APPS, {
      json: { answers, baseRevision: current.revision },
    });
  }

  const upload = (client: TestClient, pointer: string) =>
    postForm(client, `${APPS}/files`, [
      { name: 'pointer', value: pointer },
      { name: 'file', filename: 'replaced.pdf', contentType: 'application/pdf', data: newTaxForm },
    ]);

  const refusalOf = (prompt: string) =>
    `${prompt} was not among the changes requested; it cannot change.`;
  const title = (key: string) => testForm('business').schema.properties![key]!.title!;

  it('takes a marked answer, one inside an affiliated person, and what a marked change makes appear', async () => {
    const applicant = await askedFor([SIGNER, PASSPORT_COUNTRY, '/disclosures']);
    const client = applicant.client;
    // An answer inside an affiliated person, marked.
    const country = await save(client, (answers) => {
      (answers.affiliatedPersons as Answers[])[1]!.passportCountryOfIssuance = 'NZ';
    });
    expect(country.statusCode, country.body).toBe(200);
    // A marked answer whose change makes a file question and a text question appear.
    const signer = await save(client, (answers) => {
      answers.signerAuthorization = 'no';
      answers.disclosures = 'Yes';
    });
    expect(signer.statusCode, signer.body).toBe(200);
    const appeared = await upload(client, SIGNER_FORM);
    expect(appeared.statusCode, appeared.body).toBe(200);
    const detail = await save(client, (answers) => {
      answers.disclosuresDetail = 'A warning in 2019.';
    });
    expect(detail.statusCode, detail.body).toBe(200);
    // Changed again on a later save: still judged against the answers as submitted.
    const again = await save(client, (answers) => {
      answers.disclosuresDetail = 'A written warning in 2019, since closed.';
    });
    expect(again.statusCode, again.body).toBe(200);

    // The resubmission takes the same changes (the signer form the application holds).
    const answers = (await application(client)).answers;
    expect(answers.authorizationForm).toMatchObject({ name: 'replaced.pdf' });
    const resubmitted = await resubmitBusiness(client, answers);
    expect(resubmitted.statusCode, resubmitted.body).toBe(201);
    const latest = await latestVersion(applicant.registrationId);
    expect(latest.answers.disclosuresDetail).toBe('A written warning in 2019, since closed.');
    expect((latest.answers.affiliatedPersons as Answers[])[1]!.passportCountryOfIssuance).toBe(
      'NZ',
    );
    expect(latest.documents.authorizationForm?.name).toBe('replaced.pdf');
  });

  it('refuses an unmarked answer or file on every path, naming the question by its prompt', async () => {
    const applicant = await askedFor([PASSPORT_COUNTRY]);
    const client = applicant.client;
    const before = await application(client);

    const renamed = await save(client, (answers) => {
      answers.bizName = 'Another Name LLC';
    });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().errorMessage).toBe(refusalOf(title('bizName')));
    expect(renamed.json().errors).toEqual({ '/bizName': refusalOf(title('bizName')) });

    const person = await save(client, (answers) => {
      (answers.affiliatedPersons as Answers[])[0]!.lastName = 'Okafor-Smith';
    });
    expect(person.statusCode).toBe(409);
    expect(person.json().errorMessage).toBe(refusalOf('Affiliated person 1: Last name'));

    const uploaded = await upload(client, CERTIFICATE);
    expect(uploaded.statusCode).toBe(409);
    expect(uploaded.json().errorMessage).toBe(refusalOf(title('certificateOfInc')));
    const removed = await client.request('DELETE', `${APPS}/files?pointer=${CERTIFICATE}`);
    expect(removed.statusCode).toBe(409);
    expect(removed.json().errorMessage).toBe(refusalOf(title('certificateOfInc')));
    // Nothing of it reached the application.
    const after = await application(client);
    expect(after.revision).toBe(before.revision);
    expect(after.answers).toEqual(before.answers);
    expect(after.files).toEqual(before.files);

    // The resubmission refuses the same changes with the same words.
    const resubmittedName = await resubmitBusiness(client, {
      ...before.answers,
      bizName: 'Another Name LLC',
    });
    expect(resubmittedName.statusCode).toBe(409);
    expect(resubmittedName.json().errorMessage).toBe(refusalOf(title('bizName')));
    const resubmittedFile = await resubmitBusiness(client, before.answers, {
      [CERTIFICATE]: pdfBlob(newTaxForm),
    });
    expect(resubmittedFile.statusCode).toBe(409);
    expect(resubmittedFile.json().errorMessage).toBe(refusalOf(title('certificateOfInc')));
    expect((await overview(client)).registration?.status).toBe('changes_requested');
  });

  it('a request with a note alone lets every answer and file change, on every path', async () => {
    const applicant = await askedFor([]);
    const client = applicant.client;
    const { changeRequest } = await application(client);
    expect(changeRequest?.fields).toEqual([]);
    const renamed = await save(client, (answers) => {
      answers.bizName = 'Another Name LLC';
      (answers.affiliatedPersons as Answers[])[0]!.lastName = 'Okafor-Smith';
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const uploaded = await upload(client, CERTIFICATE);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const answers = (await application(client)).answers;
    const resubmitted = await resubmitBusiness(client, answers);
    expect(resubmitted.statusCode, resubmitted.body).toBe(201);
    const latest = await latestVersion(applicant.registrationId);
    expect(latest.answers.bizName).toBe('Another Name LLC');
    expect(latest.documents.certificateOfInc?.name).toBe('replaced.pdf');
  });

  it('gives change mode the answers as submitted, however often the application was saved since', async () => {
    const applicant = await askedFor([SIGNER]);
    const client = applicant.client;
    const saved = await save(client, (answers) => {
      answers.signerAuthorization = 'no';
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const { answers, changeRequest } = await application(client);
    expect(answers.signerAuthorization).toBe('no');
    expect(changeRequest?.submitted.signerAuthorization).toBe('yes');
  });
});

async function overview(client: TestClient) {
  return (await client.get('/exchange/api/web/registration')).json() as RegistrationOverview;
}
