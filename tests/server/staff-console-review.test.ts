import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countryName, regionName } from '../../src/shared/forms/review/placeNames';
import { auditRows, postForm, registeredCustomer, signedInStaff } from './adminHelpers';
import { createTestApp, type TestApp } from './testApp';

const C = '/clearing/admin';

describe('staff console: review actions and reading a registration', () => {
  let t: TestApp;
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  beforeAll(async () => {
    t = await createTestApp();
    staff = await signedInStaff(t);
  });
  afterAll(async () => t.close());

  it('approves only from a confirmation page that names the applicant', async () => {
    const c = await registeredCustomer(t);
    const url = `${C}/registrations/${c.registrationId}`;
    // A bare approve post (no confirmation) decides nothing and asks first.
    const bare = await postForm(staff.client, `${url}/decision`, { decision: 'approve' });
    expect(bare.statusCode).toBe(303);
    expect(bare.headers.location).toBe(`${url}/approve`);
    const wrong = await postForm(staff.client, `${url}/decision`, {
      decision: 'approve',
      confirmed: '00000000-0000-4000-8000-000000000000',
    });
    expect(wrong.headers.location).toBe(`${url}/approve`);
    expect((await c.client.get('/exchange/api/web/user')).json().details.approved).toBe(false);

    const confirm = await staff.client.get(`${url}/approve`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Approve Jane O&#x27;Neill?');
    expect(confirm.body).toContain(c.email);
    expect(confirm.body).toContain(`name="confirmed" value="${c.registrationId}"`);
    expect(confirm.body).toContain(
      `name="_csrf" value="${staff.client.cookies.get('csrf_token')}"`,
    );

    const approved = await postForm(staff.client, `${url}/decision`, {
      decision: 'approve',
      confirmed: c.registrationId,
    });
    expect(approved.headers.location).toBe(`${url}?decided=approved`);
    expect((await c.client.get('/exchange/api/web/user')).json().details.approved).toBe(true);
    // Once decided, the confirmation page leads back to the registration.
    expect((await staff.client.get(`${url}/approve`)).statusCode).toBe(303);
  });

  it('refuses a decision or a change request posted on one’s own registration (403, nothing decided)', async () => {
    const own = await registeredCustomer(t);
    await t.pool.query('update users set is_staff = true where id = $1', [own.id]);
    const url = `${C}/registrations/${own.registrationId}`;
    const sentence =
      'You filed this registration, so you cannot decide on it: another reviewer must approve, reject or request changes.';
    // Posted by hand (the page offers no buttons): each is refused with the sentence.
    for (const [path, body] of [
      ['decision', { decision: 'approve', confirmed: own.registrationId }],
      ['decision', { decision: 'reject', reason: 'No.', confirmed: own.registrationId }],
      ['changes', { note: 'Change it.' }],
    ] as const) {
      const response = await postForm(own.client, `${url}/${path}`, body);
      expect(response.statusCode, `${path} ${JSON.stringify(body)}`).toBe(403);
      expect(response.body).toContain(sentence);
    }
    const row = await t.pool.query(
      'select status, reviewed_by, change_request from registrations where id = $1',
      [own.registrationId],
    );
    expect(row.rows[0]).toEqual({ status: 'submitted', reviewed_by: null, change_request: null });
    expect(
      (await auditRows(t, 'registration.approved')).filter(
        (r) => r.registration_id === own.registrationId,
      ),
    ).toEqual([]);
  });

  it('requests changes with a note, shown to staff; the applicant is emailed', async () => {
    const c = await registeredCustomer(t);
    const url = `${C}/registrations/${c.registrationId}`;
    const page = (await staff.client.get(url)).body;
    expect(page).toContain('>Request changes</button>');
    const empty = await postForm(staff.client, `${url}/changes`, { note: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Please say what the applicant should change.');
    const note = 'Upload the back of your driver license.';
    const response = await postForm(staff.client, `${url}/changes`, { note });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${url}?decided=changes_requested`);
    const after = (await staff.client.get(response.headers.location as string)).body;
    expect(after).toContain('Changes requested. The applicant was emailed what to change.');
    expect(after).toContain(note);
    // The request is this version's decision (issue 39 §5): no approval or other request until
    // the changes come; a rejection may still close an application the applicant abandons.
    expect(after).not.toContain('>Request changes</button>');
    expect(after).not.toContain('>Approve');
    expect(after).toContain('>Reject</button>');
    expect(after).toContain('Waiting for the applicant&#x27;s changes');
    expect(t.mailer.outbox().at(-1)).toMatchObject({ to: c.email });
    expect((await auditRows(t, 'registration.changes-requested')).at(-1)).toMatchObject({
      actor_user_id: staff.id,
      registration_id: c.registrationId,
      detail: { via: 'console' },
    });
    const list = (await staff.client.get(C)).body;
    const heading = list.indexOf(
      '<h2 id="waiting-heading">Waiting for the applicant&#x27;s changes',
    );
    expect(heading).toBeGreaterThan(0);
    const waiting = list.slice(heading);
    expect(waiting).toContain(c.email);
    // Without the CSRF token nothing happens.
    const forged = await postForm(staff.client, `${url}/changes`, { note }, { csrf: null });
    expect(forged.statusCode).toBe(403);
  });

  it('lists documents by their prompts and previews ID images inline', async () => {
    const c = await registeredCustomer(t);
    const page = (await staff.client.get(`${C}/registrations/${c.registrationId}`)).body;
    // The documents section only (the audit trail below it has its own <code>).
    const documents = page.slice(
      page.indexOf('<h2>Documents</h2>'),
      page.indexOf('Signature evidence</h2>'),
    );
    expect(documents).not.toContain('document.agree');
    expect(documents).not.toContain('<code>');
    expect(documents).toContain('I agree to the Terms of Service (signed document)');
    const images = [...page.matchAll(/<img src="([^"]+)" alt="([^"]+)"/g)];
    expect(images.length).toBeGreaterThanOrEqual(2);
    const [src, alt] = [images[0]![1]!, images[0]![2]!];
    expect(alt).not.toBe('');
    const inline = await staff.client.get(src);
    expect(inline.statusCode).toBe(200);
    expect(inline.headers['content-type']).toBe('image/png');
    expect(inline.headers['content-disposition']).toBe('inline');
    expect(inline.headers['x-content-type-options']).toBe('nosniff');
    // Without ?inline=1 it stays an attachment; a PDF never goes inline.
    const download = await staff.client.get(src.replace('?inline=1', ''));
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
    const pdfLink =
      /href="(\/clearing\/admin\/documents\/[^"?]+)" download="">I agree to the Terms/.exec(
        page,
      )![1]!;
    const pdf = await staff.client.get(`${pdfLink}?inline=1`);
    expect(pdf.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('shows countries and regions by name', async () => {
    const c = await registeredCustomer(t);
    const page = (await staff.client.get(`${C}/registrations/${c.registrationId}`)).body;
    const address = page.slice(page.indexOf('<caption>Address</caption>'));
    expect(address).toMatch(/<dt>Country<\/dt><dd>United States<details/);
    expect(address).not.toMatch(/<dd>US</);
    expect(address).toMatch(/<dt>State \/ region<\/dt><dd>(New York|California)<details/);
    expect(countryName('CA')).toBe('Canada');
    expect(regionName('CA', 'QC')).toBe('Quebec');
    expect(regionName('US', 'Nowhere')).toBe('Nowhere');
    expect(countryName('ZZ')).toBe('ZZ');
  });

  it('gives every new organisation a clearing id of one format', async () => {
    const c = await registeredCustomer(t);
    const user = (await c.client.get('/exchange/api/web/user')).json();
    expect(user.orgDetails.clearingOrgId).toMatch(/^NCF-\d{6}$/);
  });

  it('offers a customer at the console the customer site, never a link back to itself', async () => {
    const c = await registeredCustomer(t);
    const response = await c.client.get(C);
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('href="/clearing/home"');
    expect(response.body).not.toContain(`href="${C}"`);
  });
});
