/**
 * The console's versions of a resubmitted registration (issue 17): each version with its time and
 * schema hash, and what changed between them by the prompts each version was asked under (an
 * earlier wording from `form_versions`), answers before and after, documents replaced.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resubmitBusiness } from './registrationHelpers';
import { canonicalJson } from '../../src/shared/forms/model/bundleForm';
import { sha256 } from '../../src/shared/forms/payload/sha256';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { postForm, registeredBusiness, signedInStaff } from './adminHelpers';
import { createTestApp, type TestApp } from './testApp';
import { testForm } from '../forms';

const C = '/clearing/admin';
const W8 = '/w8orw9';
const PASSPORT_COUNTRY = '/affiliatedPersons/1/passportCountryOfIssuance';
// Other bytes than every document of the first submission: the replaced tax form.
const newTaxForm = fs.readFileSync('assets/pdfs/risk-disclosures.pdf');
const pdfBlob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)], { type: 'application/pdf' });
/** How the question read when version 1 was answered (markup in it must stay text). */
const EARLIER_PROMPT = 'Country that <em>issued</em> the passport';

/**
 * Makes version 1 of a registration answered under an earlier wording of the business form (the
 * passport country asked as `prompt`), as if the schema changed between the versions:
 * that wording stored in `form_versions` when `kept`, else only its hash on the version.
 */
async function answeredUnderEarlierWording(
  t: TestApp,
  registrationId: string,
  kept: boolean,
  prompt = EARLIER_PROMPT,
) {
  const form = testForm('business');
  const text = JSON.stringify(form.schema);
  expect(text.split('"Passport country of issuance"')).toHaveLength(2);
  const schema = JSON.parse(
    text.replace('"Passport country of issuance"', JSON.stringify(prompt)),
  ) as unknown;
  const hash = sha256(canonicalJson({ schema, uiSchema: form.uiSchema }));
  if (kept) {
    await t.pool.query(
      `insert into form_versions (schema_hash, form_id, schema, ui_schema) values ($1, 'business', $2, $3)`,
      [hash, JSON.stringify(schema), JSON.stringify(form.uiSchema)],
    );
  }
  await t.pool.query(
    'update registration_versions set schema_hash = $2 where registration_id = $1 and version = 1',
    [registrationId, hash],
  );
  return hash;
}

describe('staff console: versions of a resubmitted registration', () => {
  let t: TestApp;
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  beforeAll(async () => {
    t = await createTestApp();
    staff = await signedInStaff(t);
  });
  afterAll(async () => t.close());

  /** Staff mark the tax form and the person's passport country; the applicant replaces and fixes. */
  async function markedAndResubmitted(applicant: Awaited<ReturnType<typeof registeredBusiness>>) {
    const url = `${C}/registrations/${applicant.registrationId}`;
    const marked = await postForm(staff.client, `${url}/changes`, [
      ['mark', W8],
      [`note:${W8}`, 'The W-9 is not signed.'],
      ['mark', PASSPORT_COUNTRY],
      [`note:${PASSPORT_COUNTRY}`, 'Give the country of the passport you hold now.'],
    ]);
    expect(marked.statusCode, marked.body).toBe(303);
    const answers = structuredClone(applicant.answers);
    (answers.affiliatedPersons as Answers[])[1]!.passportCountryOfIssuance = 'NZ';
    answers.w8orw9 = { name: 'w9-signed.pdf', type: 'application/pdf', size: newTaxForm.length };
    const response = await resubmitBusiness(applicant.client, answers, {
      [W8]: pdfBlob(newTaxForm),
    });
    expect(response.statusCode, response.body).toBe(201);
    const page = (await staff.client.get(url)).body;
    return { page, versions: page.slice(page.indexOf('<h2 id="versions-heading">')) };
  }

  it('shows no versions for a registration submitted once', async () => {
    const applicant = await registeredBusiness(t);
    const page = (await staff.client.get(`${C}/registrations/${applicant.registrationId}`)).body;
    expect(page).toContain('Granite Ridge'); // the page itself is there
    expect(page).not.toContain('id="versions-heading"');
    expect(page).not.toContain('What changed in version');
  });

  it('shows version 1 and 2, the prompt as version 1 asked it, answers before and after, the document replaced', async () => {
    const applicant = await registeredBusiness(t);
    const earlier = await answeredUnderEarlierWording(t, applicant.registrationId, true);
    const { page, versions } = await markedAndResubmitted(applicant);

    expect(page).toContain('id="versions-heading"');
    // The top of the page leads to what the latest version changed.
    expect(page).toContain('<a href="#changes-v2">What changed in version 2 ↓</a>');
    expect(versions).toContain('<td>1</td>');
    expect(versions).toContain('<td>2</td>');
    expect(versions).toContain(`<code>${earlier}</code>`);
    expect(versions).toContain(`<code>${testForm('business').hash}</code>`);
    expect(versions).toContain('<h3 id="changes-v2">What changed from version 1 to version 2</h3>');
    // The prompt as each version asked it, its markup as text: escaped by the renderer.
    expect(versions).toContain(
      '<th scope="row">Affiliated person 2: Passport country of issuance<span class="muted"> (asked as “Affiliated person 2: Country that &lt;em&gt;issued&lt;/em&gt; the passport” before)</span></th><td class="before">Australia</td><td class="after">New Zealand</td>',
    );
    expect(versions).not.toContain('<em>issued</em>');
    expect(versions).toContain(
      '<td class="before">w8orw9.pdf</td><td class="after">w9-signed.pdf (replaced)</td>',
    );
    expect(versions).not.toContain('is not available here');
    // Only what changed: the business's name and the unchanged documents are the same in both.
    const diff = versions.slice(0, versions.indexOf('</section>'));
    expect(diff).not.toContain(String(applicant.answers.bizName));
    expect(diff).not.toContain('certificateOfInc.pdf');
    // Resubmitted: it awaits review again, marks and all, and the trail names the resubmission.
    expect(page).toContain('name="mark"');
    expect(page).toContain('<button type="submit" class="approve">Approve…</button>');
    expect(page).toContain('<button type="submit" class="changes">Request changes</button>');
    expect(page).toContain('<button type="submit" class="reject">Reject</button>');
    expect(page).toMatch(
      /<td>Resubmitted with the changes asked for<\/td><td>the applicant<\/td><td>version 2<\/td>/,
    );
    expect(page).not.toContain('registration.changes-made');
    // The version's wording stays in the database: every submission records the one it used.
    const recorded = await t.pool.query('select 1 from form_versions where schema_hash = $1', [
      testForm('business').hash,
    ]);
    expect(recorded.rowCount).toBe(1);
  });

  it('approves a resubmitted registration from the console, after the confirmation', async () => {
    const applicant = await registeredBusiness(t);
    await markedAndResubmitted(applicant);
    const url = `${C}/registrations/${applicant.registrationId}`;
    const confirm = await staff.client.get(`${url}/approve`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(`name="confirmed" value="${applicant.registrationId}"`);
    const decided = await postForm(staff.client, `${url}/decision`, {
      decision: 'approve',
      confirmed: applicant.registrationId,
    });
    expect(decided.statusCode, decided.body).toBe(303);
    expect(decided.headers.location).toBe(`${url}?decided=approved`);
    const overview = await applicant.client.get('/exchange/api/web/registration');
    expect(overview.json().registration.status).toBe('approved');
  });

  it('draws a version whose stored wording no longer compiles with the prompts as asked now, and says so', async () => {
    const applicant = await registeredBusiness(t);
    const broken = 'f'.repeat(64);
    await t.pool.query(
      `insert into form_versions (schema_hash, form_id, schema, ui_schema)
       values ($1, 'business', '{"type": "no such type"}', '{}')`,
      [broken],
    );
    await t.pool.query(
      'update registration_versions set schema_hash = $2 where registration_id = $1',
      [applicant.registrationId, broken],
    );
    const { versions } = await markedAndResubmitted(applicant);
    expect(versions).toContain(
      'The wording version 1 was answered under is not available here; its prompts are shown as the form asks them now.',
    );
    expect(versions).toContain(
      '<th scope="row">Affiliated person 2: Passport country of issuance</th><td class="before">Australia</td><td class="after">New Zealand</td>',
    );
  });

  it('says so, and shows the prompts as asked now, when the database does not hold a version’s wording', async () => {
    const applicant = await registeredBusiness(t);
    await answeredUnderEarlierWording(t, applicant.registrationId, false, 'Passport issued by');
    const { versions } = await markedAndResubmitted(applicant);
    expect(versions).toContain(
      'The wording version 1 was answered under is not available here; its prompts are shown as the form asks them now.',
    );
    expect(versions).toContain(
      '<th scope="row">Affiliated person 2: Passport country of issuance</th><td class="before">Australia</td><td class="after">New Zealand</td>',
    );
  });
});
