import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskValue } from '../../src/server/admin/RegistrationAnswers';
import { freshClient } from './authHelpers';
import { auditRows, postForm, registeredCustomer, signedInStaff } from './adminHelpers';
import { createTestApp, type TestApp } from './testApp';

const C = '/clearing/admin';

describe('staff console', () => {
  let t: TestApp;
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  const detailUrl = () => `${C}/registrations/${customer.registrationId}`;

  beforeAll(async () => {
    t = await createTestApp();
    staff = await signedInStaff(t);
    customer = await registeredCustomer(t);
  });
  afterAll(async () => t.close());

  it('redirects a signed-out visitor to sign-in with the message', async () => {
    for (const url of [C, detailUrl(), `${C}/documents/00000000-0000-4000-8000-000000000000`]) {
      const response = await freshClient(t.app).get(url);
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/clearing/signin?notice=signin-required');
    }
  });

  it('answers a signed-in customer with a 403 page, nothing else', async () => {
    const response = await customer.client.get(detailUrl());
    expect(response.statusCode).toBe(403);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('This console is for staff only.');
    expect(response.body).not.toContain('123-45-6789');
    const post = await postForm(customer.client, `${detailUrl()}/decision`, {
      decision: 'approve',
    });
    expect(post.statusCode).toBe(403);
  });

  it('lists the registrations awaiting review with a link to each', async () => {
    const response = await staff.client.get(C);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('Awaiting review');
    expect(response.body).toContain(customer.email);
    expect(response.body).toContain(`href="${detailUrl()}"`);
    expect(response.body).toContain('Decisions (');
    // The CSP holds: no inline script, a same-origin stylesheet.
    expect(response.body).not.toMatch(/<script/i);
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.body).toContain('<link rel="stylesheet" href="/clearing/admin/console.css"/>');
    const css = await freshClient(t.app).get('/clearing/admin/console.css');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');
  });

  it('shows the registration as submitted: prompts next to answers, sections, form and wording version', async () => {
    const response = await staff.client.get(detailUrl());
    expect(response.statusCode).toBe(200);
    const html = response.body;
    const registration = await t.pool.query(
      'select schema_hash, payload from registrations where id = $1',
      [customer.registrationId],
    );
    expect(html).toContain(registration.rows[0].schema_hash);
    expect(html).toContain('<code>individual</code>');
    // Prompts as sent, each beside its answer, under the uiSchema's section headings.
    expect(html).toMatch(/<th scope="row">First name<\/th><td>Jane<details class="mark">/);
    expect(html).toContain('<caption>About you</caption>');
    expect(html).toContain('<caption>Photo ID</caption>');
    expect(html).toContain('Current mailing address');
    expect(html).toContain('350 Fifth Avenue');
    // A choice shows the label the customer picked.
    expect(html).toContain('U.S. driver&#x27;s license');
    // Form order: first name before the mailing address.
    expect(html.indexOf('First name')).toBeLessThan(html.indexOf('Current mailing address'));
    expect((await auditRows(t, 'registration.viewed')).at(-1)).toMatchObject({
      actor_user_id: staff.id,
      subject: customer.id,
    });
  });

  it('masks the SSN and date of birth until revealed; a reveal is audited', async () => {
    const html = (await staff.client.get(detailUrl())).body;
    expect(html).not.toContain('123-45-6789');
    expect(html).toContain('•••-••-6789');
    expect(html).not.toContain('04/17/1985');
    expect(html).toContain('••/••/••••');
    expect(html).toContain('aria-label="Reveal Social Security number"');

    const since = new Date();
    const revealed = await postForm(staff.client, `${detailUrl()}/reveal`, {
      field: '/socialSecurityNumber',
    });
    expect(revealed.statusCode).toBe(200);
    expect(revealed.body).toContain('123-45-6789');
    expect(revealed.body).not.toContain('04/17/1985'); // only the field asked for
    const rows = await auditRows(t, 'registration.revealed', since);
    expect(rows).toEqual([
      expect.objectContaining({
        actor_user_id: staff.id,
        subject: customer.id,
        registration_id: customer.registrationId,
        detail: { field: '/socialSecurityNumber' },
      }),
    ]);
    // Only sensitive answers are "revealed"; anything else is refused.
    const other = await postForm(staff.client, `${detailUrl()}/reveal`, { field: '/firstName' });
    expect(other.statusCode).toBe(400);
  });

  it('refuses a reveal or decision without the CSRF token, or from another origin', async () => {
    const noToken = await postForm(
      staff.client,
      `${detailUrl()}/reveal`,
      { field: '/socialSecurityNumber' },
      { csrf: null },
    );
    expect(noToken.statusCode).toBe(403);
    expect(noToken.body).not.toContain('123-45-6789');
    const wrong = await postForm(
      staff.client,
      `${detailUrl()}/decision`,
      { decision: 'approve' },
      { csrf: 'forged' },
    );
    expect(wrong.statusCode).toBe(403);
    const crossSite = await staff.client.request('POST', `${detailUrl()}/decision`, {
      payload: new URLSearchParams({
        decision: 'approve',
        _csrf: staff.client.cookies.get('csrf_token')!,
      }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
      },
      csrf: false,
    });
    expect(crossSite.statusCode).toBe(403);
    const row = await t.pool.query('select status from registrations where id = $1', [
      customer.registrationId,
    ]);
    expect(row.rows[0].status).toBe('submitted');
  });

  it('serves documents as attachments, by id, to staff only, and audits the download', async () => {
    const documents = await t.pool.query<{ id: string; part: string }>(
      'select id, part from registration_documents where registration_id = $1 order by part',
      [customer.registrationId],
    );
    const photo = documents.rows.find((d) => d.part === 'photoId')!;
    const html = (await staff.client.get(detailUrl())).body;
    expect(html).toContain(`href="${C}/documents/${photo.id}"`);

    const response = await staff.client.get(`${C}/documents/${photo.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="front.png"; filename*=UTF-8''front.png`,
    );
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect((await auditRows(t, 'registration.document-downloaded')).at(-1)?.detail).toMatchObject({
      documentId: photo.id,
    });

    expect((await customer.client.get(`${C}/documents/${photo.id}`)).statusCode).toBe(403);
    expect((await freshClient(t.app).get(`${C}/documents/${photo.id}`)).statusCode).toBe(302);
    expect((await staff.client.get(`${C}/documents/not-an-id`)).statusCode).toBe(404);
  });

  it('escapes user content: a <script> first name stays text', async () => {
    const c = await registeredCustomer(t);
    const evil = '<script>alert(1)</script>';
    await t.pool.query(
      `update users set details = jsonb_set(details, '{firstName}', to_jsonb($2::text)) where id = $1`,
      [c.id, evil],
    );
    await t.pool.query(
      `update registrations
          set payload = jsonb_set(payload, '{userInfo,firstName,value}', to_jsonb($2::text))
        where id = $1`,
      [c.registrationId, evil],
    );
    const list = await staff.client.get(C);
    const detail = await staff.client.get(`${C}/registrations/${c.registrationId}`);
    for (const body of [list.body, detail.body]) {
      expect(body).not.toContain(evil);
      expect(body).toMatch(
        /(&#60;|&lt;)script(&#62;|&gt;)alert\(1\)(&#60;|&lt;)\/script(&#62;|&gt;)/,
      );
      // No script but the console's own, by address (the CSP allows no inline one).
      expect(
        body.replace('<script src="/clearing/admin/console.js" defer=""></script>', ''),
      ).not.toMatch(/<script/i);
    }
    // The answer itself, drawn by React, escaped there.
    expect(detail.body).toMatch(
      /<th scope="row">First name<\/th><td>&lt;script&gt;alert\(1\)&lt;\/script&gt;/,
    );
  });

  it('approves through the console form: the customer becomes approved and it is audited', async () => {
    const c = await registeredCustomer(t);
    const url = `${C}/registrations/${c.registrationId}`;
    const page = (await staff.client.get(url)).body;
    expect(page).toContain(`name="_csrf" value="${staff.client.cookies.get('csrf_token')}"`);
    expect(page).toContain('>Approve…</button>');
    expect(page).toContain('>Reject</button>');

    const response = await postForm(staff.client, `${url}/decision`, {
      decision: 'approve',
      confirmed: c.registrationId,
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${url}?decided=approved`);
    const after = await staff.client.get(response.headers.location as string);
    expect(after.body).toContain('Registration approved.');
    expect(after.body).not.toContain('>Approve…</button>');

    expect((await c.client.get('/exchange/api/web/user')).json().details.approved).toBe(true);
    expect((await auditRows(t, 'registration.approved')).at(-1)).toMatchObject({
      actor_user_id: staff.id,
      subject: c.id,
      registration_id: c.registrationId,
      detail: { via: 'console' },
    });
    const list = (await staff.client.get(C)).body;
    const decided = list.slice(list.indexOf('Decisions ('));
    expect(decided).toContain(c.email);
  });

  it('rejects through the console only with a reason', async () => {
    const c = await registeredCustomer(t);
    const url = `${C}/registrations/${c.registrationId}`;
    const noReason = await postForm(staff.client, `${url}/decision`, {
      decision: 'reject',
      reason: ' ',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain('Please give a reason for the rejection.');
    // Reject asks first, naming the applicant and the reason they will be emailed (issue 38 §5).
    const reason = 'Name does not match the <b>photo ID</b>.';
    const asked = await postForm(staff.client, `${url}/decision`, { decision: 'reject', reason });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('You are about to reject the registration of');
    expect(asked.body).toContain(c.email);
    expect(asked.body).toContain('Name does not match the &lt;b&gt;photo ID&lt;/b&gt;.');
    expect(asked.body).toContain(
      `<input type="hidden" name="confirmed" value="${c.registrationId}"/>`,
    );
    expect(asked.body).toContain(`<a href="${url}">Cancel</a>`);
    const waiting = await t.pool.query('select status from registrations where id = $1', [
      c.registrationId,
    ]);
    expect(waiting.rows[0].status).toBe('submitted');
    const response = await postForm(staff.client, `${url}/decision`, {
      decision: 'reject',
      reason,
      confirmed: c.registrationId,
    });
    expect(response.statusCode).toBe(303);
    const page = (await staff.client.get(`${url}?decided=rejected`)).body;
    expect(page).toContain('Registration rejected.');
    expect(page).toContain('Name does not match the &lt;b&gt;photo ID&lt;/b&gt;.');
    expect((await c.client.get('/exchange/api/web/user')).json().details.approved).toBe(false);
  });

  it('pages a queue longer than a page: the whole count in the heading, the next page by its link, no row twice', async () => {
    // 60 more registrations awaiting review: copies of the customer's, each of its own user.
    await t.pool.query(
      `with copies as (
         insert into users
         select (jsonb_populate_record(null::users, to_jsonb(u) || jsonb_build_object(
                   'id', gen_random_uuid(), 'email', 'queue' || n || '@example.com'))).*
           from users u, generate_series(1, 60) n where u.id = $1
         returning id)
       insert into registrations
       select (jsonb_populate_record(null::registrations, to_jsonb(r) || jsonb_build_object(
                 'id', gen_random_uuid(), 'user_id', copies.id, 'status', 'submitted'))).*
         from registrations r, copies where r.id = $2`,
      [customer.id, customer.registrationId],
    );
    const awaiting = (body: string) =>
      body.slice(body.indexOf('id="awaiting-heading"'), body.indexOf('id="decided-heading"'));
    const links = (body: string) =>
      [...awaiting(body).matchAll(/href="\/clearing\/admin\/registrations\/([0-9a-f-]{36})"/g)].map(
        (match) => match[1],
      );
    const first = await staff.client.get(C);
    const count = Number(/Awaiting review \((\d+)\)/.exec(first.body)?.[1]);
    expect(count).toBeGreaterThanOrEqual(61);
    expect(links(first.body)).toHaveLength(50);
    const next = /<a href="(\/clearing\/admin\?awaiting=[^"#]+)#awaiting-heading">Next page/.exec(
      awaiting(first.body),
    );
    expect(next).not.toBeNull();
    const seen = new Set(links(first.body));
    let page = await staff.client.get(next![1]!.replaceAll('&amp;', '&'));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Awaiting review (${count})`);
    expect(page.body).toContain('First page');
    for (const id of links(page.body)) {
      expect(seen.has(id), id).toBe(false);
      seen.add(id);
    }
    expect(seen.size).toBe(Math.min(count, 100));
    // A cursor the console did not make is refused with a page that says so.
    page = await staff.client.get(`${C}?awaiting=bm90LWEtY3Vyc29y`);
    expect(page.statusCode).toBe(400);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('The cursor is not one this list answered.');
  });

  it('answers unknown console pages and registrations with 404 pages', async () => {
    expect((await staff.client.get(`${C}/nope`)).statusCode).toBe(404);
    expect(
      (await staff.client.get(`${C}/registrations/00000000-0000-4000-8000-000000000000`))
        .statusCode,
    ).toBe(404);
  });
});

describe('maskValue', () => {
  it('keeps the last four characters of identifiers and masks dates entirely', () => {
    expect(maskValue('123-45-6789')).toBe('•••-••-6789');
    expect(maskValue('X1234567')).toBe('••••4567');
    expect(maskValue('04/17/1985')).toBe('••/••/••••');
    expect(maskValue('1985-04-17')).toBe('••••-••-••');
    expect(maskValue('AB12')).toBe('••12');
  });
});
