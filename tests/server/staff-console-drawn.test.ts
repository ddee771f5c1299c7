/**
 * The staff console's registration page drawn from the compiled form (issue 17): prompts as the
 * applicant answered them, countries and regions by name inside affiliated persons, Reveal as
 * JSON (dates as the prompt names them), business registrations by name, marks sent as pointers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileForms } from '../../src/shared/forms/model/compileNode';
import type { CompiledForm } from '../../src/shared/forms/model/compiledForm';
import {
  auditRows,
  postForm,
  registeredBusiness,
  registeredCustomer,
  signedInStaff,
} from './adminHelpers';
import { createTestApp, type TestApp } from './testApp';
import { projectSources } from '../forms';

const C = '/clearing/admin';
const REWORDED_FIRST_NAME = 'Given name, exactly as on your photo ID';
const REWORDED_BIZ_NAME = 'Registered legal name of the business';

/** The portal's forms with one prompt of each registration reworded, as compliance staff would. */
function rewordedForms(): Map<string, CompiledForm> {
  const sources = projectSources();
  const individual = sources.forms.individual!.schema as {
    properties: Record<string, { title?: string }>;
  };
  individual.properties.firstName!.title = REWORDED_FIRST_NAME;
  const business = sources.forms.business!.schema as {
    properties: Record<string, { title?: string }>;
  };
  business.properties.bizName!.title = REWORDED_BIZ_NAME;
  const { forms, problems } = compileForms(sources);
  expect(problems).toEqual([]);
  return forms;
}

describe('staff console: the registration page drawn from the form', () => {
  let t: TestApp;
  let forms: Map<string, CompiledForm>;
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  let business: Awaited<ReturnType<typeof registeredBusiness>>;
  const businessUrl = () => `${C}/registrations/${business.registrationId}`;

  beforeAll(async () => {
    forms = rewordedForms();
    t = await createTestApp({}, { forms });
    staff = await signedInStaff(t);
    business = await registeredBusiness(t, {}, forms.get('business')!);
  });
  afterAll(async () => t.close());

  it('shows each prompt as the form the applicant answered words it, on both registrations', async () => {
    const individual = await registeredCustomer(t, {}, forms.get('individual')!);
    const page = (await staff.client.get(`${C}/registrations/${individual.registrationId}`)).body;
    expect(page).toContain(`<th scope="row">${REWORDED_FIRST_NAME}</th><td>Jane<details`);
    expect(page).not.toContain('<th scope="row">First name</th>');
    const html = (await staff.client.get(businessUrl())).body;
    expect(html).toContain(
      `<th scope="row">${REWORDED_BIZ_NAME}</th><td>Granite Ridge Mining Co.<details`,
    );
  });

  it('lists a business registration by the business’s name, with who registered it', async () => {
    const list = (await staff.client.get(C)).body;
    const row = list.slice(list.indexOf('Granite Ridge Mining Co.'));
    expect(list).toContain('Granite Ridge Mining Co.<br/><span class="muted">registered by ');
    expect(row.indexOf(business.email)).toBeGreaterThan(0);
    expect(list).toContain('<span class="visually-hidden"> Granite Ridge Mining Co.</span>');
    // The approval asks about the business by its name too.
    const confirm = (await staff.client.get(`${businessUrl()}/approve`)).body;
    expect(confirm).toContain('<h1>Approve Granite Ridge Mining Co.?</h1>');
    expect(confirm).toContain('>Approve Granite Ridge Mining Co.</button>');
  });

  it('names countries and regions inside an affiliated person, the passport country too', async () => {
    const html = (await staff.client.get(businessUrl())).body;
    const amelia = html.slice(html.indexOf('<li id="a-affiliatedPersons-1">'));
    expect(amelia).toMatch(/<dt>Country<\/dt><dd>Australia<details/);
    expect(amelia).toMatch(/<dt>State \/ region<\/dt><dd>New South Wales<details/);
    expect(amelia).toMatch(/<dt>Passport country of issuance<\/dt><dd>Australia<details/);
    const daniel = html.slice(html.indexOf('<li id="a-affiliatedPersons-0">'));
    expect(daniel).toMatch(/<dt>State \/ region<\/dt><dd>Colorado<details/);
    expect(html).not.toMatch(/<dd>(AU|NSW|CO)<details/);
  });

  it('reveals a date of birth as JSON in MM/DD/YYYY, audited, never cached', async () => {
    const html = (await staff.client.get(businessUrl())).body;
    expect(html).toContain('<script src="/clearing/admin/console.js" defer=""></script>');
    expect(html).not.toContain('11/22/1969');
    expect(html).not.toContain('1969-11-22');
    const since = new Date();
    const field = '/affiliatedPersons/1/dob';
    const reveal = await postForm(
      staff.client,
      `${businessUrl()}/reveal`,
      { field },
      { accept: 'application/json' },
    );
    expect(reveal.statusCode).toBe(200);
    expect(reveal.headers['content-type']).toContain('application/json');
    expect(reveal.headers['cache-control']).toBe('no-store');
    expect(reveal.json()).toEqual({
      pointer: field,
      prompt: 'Date of birth (MM/DD/YYYY)',
      text: '11/22/1969',
    });
    expect(await auditRows(t, 'registration.revealed', since)).toEqual([
      expect.objectContaining({
        actor_user_id: staff.id,
        registration_id: business.registrationId,
        detail: { field },
      }),
    ]);
    // Revealing is not viewing the page again: no view is recorded by it.
    expect(await auditRows(t, 'registration.viewed', since)).toEqual([]);
    // The audit trail names the answer by its prompt.
    const after = (await staff.client.get(businessUrl())).body;
    expect(after).toMatch(
      /Revealed a sensitive answer<\/td><td>[^<]+<\/td><td>Affiliated person 2: Date of birth \(MM\/DD\/YYYY\)<\/td>/,
    );
  });

  it('refuses a reveal as JSON with errorMessage: not sensitive, unknown, no session check', async () => {
    const plain = await postForm(
      staff.client,
      `${businessUrl()}/reveal`,
      { field: '/affiliatedPersons/1/firstName' },
      { accept: 'application/json' },
    );
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toEqual({
      errorMessage: 'That answer cannot be revealed.',
      code: 'invalid_request',
    });
    const unknown = await postForm(
      staff.client,
      `${C}/registrations/00000000-0000-4000-8000-000000000000/reveal`,
      { field: '/ssn' },
      { accept: 'application/json' },
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ errorMessage: 'No such registration.', code: 'not_found' });
    const forged = await postForm(
      staff.client,
      `${businessUrl()}/reveal`,
      { field: '/affiliatedPersons/1/dob' },
      { accept: 'application/json', csrf: 'forged' },
    );
    expect(forged.statusCode).toBe(403);
    expect(forged.json().errorMessage).toContain('Reload the page');
    expect(forged.body).not.toContain('1969');
  });

  it('serves the console script from its own address, as the CSP allows', async () => {
    const script = await staff.client.get('/clearing/admin/console.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('text/javascript');
    expect(script.headers['content-security-policy']).toContain("script-src 'self'");
    expect(script.body).toContain("accept: 'application/json'");
    // The answer is put in as text, never as markup.
    expect(script.body).toContain('textContent = body.text');
    expect(script.body).not.toContain('innerHTML');
  });

  it('marks answers and documents, inside an affiliated person too, and sends their pointers', async () => {
    const other = await registeredBusiness(t, {}, forms.get('business')!);
    const url = `${C}/registrations/${other.registrationId}`;
    const page = (await staff.client.get(url)).body;
    // A mark beside an answer of a person and beside a document, both in the changes form.
    for (const pointer of ['/affiliatedPersons/1/passportCountryOfIssuance', '/w8orw9']) {
      expect(page).toContain(
        `<input type="checkbox" form="request-changes" name="mark" value="${pointer}"/>`,
      );
      expect(page).toContain(`name="note:${pointer}"`);
    }
    expect(page).toContain(
      '<form id="request-changes" action="' + url + '/changes" method="post">',
    );
    const since = new Date();
    const response = await postForm(staff.client, `${url}/changes`, [
      ['note', 'Two things to fix, marked below.'],
      ['mark', '/w8orw9'],
      ['note:/w8orw9', 'The W-9 is not signed.'],
      ['mark', '/affiliatedPersons/1/passportCountryOfIssuance'],
      ['note:/affiliatedPersons/1/passportCountryOfIssuance', 'The passport is from New Zealand.'],
      // A note without its box ticked marks the answer too; an empty note beside nothing does not.
      ['note:/bizEmail', 'Use the compliance mailbox.'],
      ['note:/website', '  '],
    ]);
    expect(response.statusCode).toBe(303);
    const [row] = await auditRows(t, 'registration.changes-requested', since);
    expect(row?.detail).toEqual({
      via: 'console',
      fields: ['/w8orw9', '/affiliatedPersons/1/passportCountryOfIssuance', '/bizEmail'],
    });
    const after = (await staff.client.get(`${url}?decided=changes_requested`)).body;
    // The trail names each marked answer with its note while the request waits (issue 38 §5).
    expect(after).toContain(
      'marked: Tax information: W-9 for US firms, W-8BEN-E for international firms (PDF) (“The W-9 is not signed.”), Affiliated person 2: Passport country of issuance (“The passport is from New Zealand.”), Business contact email (“Use the compliance mailbox.”)',
    );
    // No marks to set once the request is sent, but the marked answers stay highlighted with
    // their notes, and listed together, until the applicant answers.
    expect(after).not.toContain('name="mark"');
    expect(after).toContain('<h2 id="requested-heading">Changes asked of the applicant</h2>');
    expect(after).toContain('href="#a-affiliatedPersons-1-passportCountryOfIssuance">');
    expect(after).toContain(
      '<div id="a-affiliatedPersons-1-passportCountryOfIssuance" class="requested">',
    );
    expect(after).toContain(
      '>Affiliated person 2: Passport country of issuance</a>: The passport is from New Zealand.</li>',
    );
    expect(after).toContain(
      '<p class="requested-note"><strong>Change requested</strong>: The passport is from New Zealand.</p>',
    );
    expect((after.match(/<(tr|div) [^>]*class="requested"/g) ?? []).length).toBe(3);
  });
});
