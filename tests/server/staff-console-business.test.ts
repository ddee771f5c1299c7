import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deref } from '../../src/shared/forms/walk/schemaWalk';
import { postForm, registeredBusiness, signedInStaff } from './adminHelpers';
import { createTestApp, type TestApp } from './testApp';
import { testForm } from '../forms';

const C = '/clearing/admin';

describe('staff console: a business registration', () => {
  let t: TestApp;
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  let business: Awaited<ReturnType<typeof registeredBusiness>>;
  const detailUrl = () => `${C}/registrations/${business.registrationId}`;
  const schema = testForm('business').schema;

  beforeAll(async () => {
    t = await createTestApp();
    staff = await signedInStaff(t);
    business = await registeredBusiness(t);
  });
  afterAll(async () => t.close());

  it('is listed awaiting review like an individual one', async () => {
    const list = (await staff.client.get(C)).body;
    expect(list).toContain(business.email);
    expect(list).toContain(`href="${detailUrl()}"`);
  });

  it('shows the user and business answers by their prompts, each affiliated person in form order', async () => {
    const html = (await staff.client.get(detailUrl())).body;
    expect(html).toContain('<code>business</code>');
    expect(html).toContain('Granite Ridge Mining Co.');
    // Section headings from the uiSchema (a step's title where its section has none).
    expect(html).toContain('<caption>User Details</caption>');
    expect(html).toContain('<caption>Business name and address</caption>');
    expect(html).toContain('<caption>Affiliated persons</caption>');
    expect(html).toMatch(
      /<th scope="row">Business legal name<\/th><td>Granite Ridge Mining Co\.<details/,
    );
    // One group per person, prompted as sent, answers by their prompts.
    expect(html).toContain('<h3 class="item">Affiliated person 1</h3>');
    expect(html).toContain('<h3 class="item">Affiliated person 2</h3>');
    expect(html).toMatch(/<dt>First name<\/dt><dd>Amelia<details/);
    expect(html).toMatch(/<dt>Is the ownership direct or indirect\?<\/dt><dd>Indirect<details/);
    // Form order inside a person (the nested form's uiSchema): the name before the address.
    const second = html.slice(html.indexOf('<h3 class="item">Affiliated person 2</h3>'));
    expect(second.indexOf('First name')).toBeLessThan(second.indexOf('Street address'));
    // The persons' summary from their stored rows, each a link to the person's answers.
    expect(html).toContain('<h2>Affiliated persons</h2>');
    expect(html).toMatch(
      /<td>2<\/td><td><a href="#a-affiliatedPersons-1">Amelia Hart<\/a><\/td><td>—<\/td><td>60% indirect<\/td>/,
    );
    expect(html).toContain('<li id="a-affiliatedPersons-1">');
    // The step signatures, signed by the registering user.
    expect(html).toContain(schema['x-signatures']!.userInfo!.prompt);
  });

  it('masks each person’s SSN, passport number and date of birth until revealed', async () => {
    const html = (await staff.client.get(detailUrl())).body;
    expect(html).not.toContain('123-45-6789');
    expect(html).toContain('•••-••-6789');
    expect(html).not.toContain('PA1234567');
    expect(html).not.toContain('1975-02-03');
    const reveal = await postForm(staff.client, `${detailUrl()}/reveal`, {
      field: '/affiliatedPersons/1/passportNumber',
    });
    expect([200, 303]).toContain(reveal.statusCode);
    const location = reveal.headers.location as string | undefined;
    const after = location ? (await staff.client.get(location)).body : reveal.body;
    expect(after).toContain('PA1234567');
  });

  it('lists the documents by their prompts, the agreements and signature with what they signed', async () => {
    const html = (await staff.client.get(detailUrl())).body;
    const documents = html.slice(html.indexOf('<h2>Documents</h2>'));
    expect(documents).toContain(`>${schema.properties!.certificateOfInc!.title}</a>`);
    expect(documents).toContain(`>${deref(schema.properties!.photoId!, schema).title}</a>`);
    expect(documents).toContain(
      `>${schema.properties!.agreeTermsOfService!.title} (signed document)</a>`,
    );
    expect(documents).toContain(
      `>${schema['x-signatures']!.businessInfo!.prompt} (signed document)</a>`,
    );
    expect(documents).not.toContain('<code>certificateOfInc</code>');
    // A signatory sent no authorized signer form.
    expect(documents).not.toContain('Authorized signer form');
  });

  it('escapes a hostile business name on the list, its page and the approval', async () => {
    const hostile = await registeredBusiness(t);
    const evil = '<script>alert(1)</script>';
    await t.pool.query(
      `update organizations set name = $2
        where id = (select organization_id from registrations where id = $1)`,
      [hostile.registrationId, evil],
    );
    const url = `${C}/registrations/${hostile.registrationId}`;
    const escaped = '&lt;script&gt;alert(1)&lt;/script&gt;';
    const list = (await staff.client.get(C)).body;
    const page = (await staff.client.get(url)).body;
    const approve = (await staff.client.get(`${url}/approve`)).body;
    for (const body of [list, page, approve]) {
      expect(body).not.toContain(evil);
      // No script but the console's own, by address (the CSP allows no inline one).
      expect(
        body.replace(/<script src="\/clearing\/admin\/console\.js" defer=""><\/script>/, ''),
      ).not.toMatch(/<script/i);
    }
    // Listed by the business's name, as text.
    expect(list).toContain(`<td>${escaped}<br/><span class="muted">registered by `);
    expect(list).toContain(`<span class="visually-hidden"> ${escaped}</span>`);
    // The page's title and heading, and the Organization fact.
    expect(page).toContain(`<h1>${escaped}: registration</h1>`);
    expect(page).toContain(`<dt>Organization</dt><dd>${escaped} (<span class="nowrap">`);
    expect(approve).toContain(`<button type="submit" class="approve">Approve ${escaped}</button>`);
  });

  it('approves and rejects business registrations like individual ones', async () => {
    const response = await postForm(staff.client, `${detailUrl()}/decision`, {
      decision: 'approve',
      confirmed: business.registrationId,
    });
    expect(response.statusCode).toBe(303);
    expect((await business.client.get('/exchange/api/web/user')).json().details.approved).toBe(
      true,
    );
    const other = await registeredBusiness(t);
    const url = `${C}/registrations/${other.registrationId}`;
    const rejected = await postForm(staff.client, `${url}/decision`, {
      decision: 'reject',
      reason: 'The certificate of incorporation is unreadable.',
      confirmed: other.registrationId,
    });
    expect(rejected.statusCode).toBe(303);
    expect((await staff.client.get(`${url}?decided=rejected`)).body).toContain(
      'Registration rejected.',
    );
    expect((await other.client.get('/exchange/api/web/user')).json().details.approved).toBe(false);
  });
});
