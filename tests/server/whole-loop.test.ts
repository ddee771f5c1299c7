/**
 * Issue 26 §3 on the server: nothing lost, nothing self-approved. An upload racing a
 * resubmission is part of it or refused; a reviewer cannot decide on their own registration; an
 * applicant's work is audited; each signature keeps its own time.
 */
import crypto from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationResponse } from '../../src/shared/api/applications';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { listSignatureEvidence } from '../../src/server/db/signatureEvidence';
import { testForm } from '../forms';
import { registeredCustomer, signedInStaff } from './adminHelpers';
import { giveEsignConsent, pdfBytes, postForm, signedIn, type Part } from './authHelpers';
import { signedDocuments } from '../../src/shared/forms/payload/payload';
import { resubmitForm } from './registrationHelpers';
import { testAppForBlock, type TestApp, type TestClient } from './testApp';

const A = '/exchange/api/admin';
const APPS = '/exchange/api/web/applications/individual';
const CONSOLE = '/clearing/admin';

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');
const photo = (background: string) =>
  sharp({ create: { width: 24, height: 18, channels: 3, background } })
    .png()
    .toBuffer();
const pngPart = (data: Buffer, filename = 'new-front.png'): Part => ({
  name: 'file',
  filename,
  contentType: 'image/png',
  data,
});
const upload = (client: TestClient, pointer: string, part: Part) =>
  postForm(client, `${APPS}/files`, [{ name: 'pointer', value: pointer }, part]);
const application = async (client: TestClient) =>
  ((await client.get(APPS)).json() as ApplicationResponse).application!;

/** Polls until `count` lock requests wait in PostgreSQL (a request held where the test wants). */
async function waitForLockWaits(t: TestApp, count: number): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const waiting = await t.pool.query<{ n: number }>(
      'select count(*)::int as n from pg_locks where not granted',
    );
    if (waiting.rows[0]!.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${count} lock waits appeared`);
}

/** The SHA-256 of the registration's stored photo ID. */
async function registeredPhoto(t: TestApp, registrationId: string): Promise<string> {
  const result = await t.pool.query<{ sha256: string }>(
    `select encode(sha256(stored_file_bytes(storage_name)), 'hex') as sha256
       from registration_documents where registration_id = $1 and part = 'photoId'`,
    [registrationId],
  );
  return result.rows[0]!.sha256;
}

describe('an upload racing a resubmission is never lost (issue 26 §3)', () => {
  const t = testAppForBlock();
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  beforeAll(async () => {
    staff = await signedInStaff(t);
  });

  /** An individual registered, then asked to change the photo ID. */
  async function askedForPhoto() {
    const applicant = await registeredCustomer(t);
    const asked = await staff.client.post(`${A}/onboarding/kyc-changes-request`, {
      registrationId: applicant.registrationId,
      fields: [{ path: '/photoId', note: 'The photo is blurred.' }],
    });
    expect(asked.statusCode, asked.body).toBe(200);
    return applicant;
  }

  /** The resubmission as change mode sends it: every answer, no file bytes (the server holds them). */
  const resubmission = async (client: TestClient) =>
    resubmitForm(client, testForm('individual'), (await application(client)).answers);

  it('an upload that lands while the resubmission waits is part of the resubmission', async () => {
    const applicant = await askedForPhoto();
    const newPhoto = await photo('#aa3311');
    // A resubmission held at its first lock (the applicant's row), as a slow one is under load.
    const holder = await t.pool.connect();
    await holder.query('begin');
    await holder.query('select 1 from users where id = $1 for update', [applicant.id]);
    const resubmitted = resubmission(applicant.client);
    await waitForLockWaits(t, 1);
    const uploaded = await upload(applicant.client, '/photoId', pngPart(newPhoto));
    await holder.query('commit');
    holder.release();
    const answer = await resubmitted;
    expect(answer.statusCode, answer.body).toBe(201);
    // Both answered yes, so the registration holds the photo the application shows.
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(await registeredPhoto(t, applicant.registrationId)).toBe(sha256(newPhoto));
  });

  it('an upload that meets the resubmission under way is refused, saying why', async () => {
    const applicant = await askedForPhoto();
    const before = await registeredPhoto(t, applicant.registrationId);
    // The resubmission holds the application and waits to write its audit row (the chain's head).
    const holder = await t.pool.connect();
    await holder.query('begin');
    await holder.query('select 1 from audit_chain_head for update');
    const resubmitted = resubmission(applicant.client);
    await waitForLockWaits(t, 1);
    const uploaded = upload(applicant.client, '/photoId', pngPart(await photo('#11aa33')));
    await waitForLockWaits(t, 2).catch(() => {}); // the upload waits for the application, if it can
    await holder.query('commit');
    holder.release();
    const answer = await resubmitted;
    expect(answer.statusCode, answer.body).toBe(201);
    const refused = await uploaded;
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().errorMessage).toBe(
      'This application has been submitted and is awaiting review, so it can no longer be changed.',
    );
    expect(await registeredPhoto(t, applicant.registrationId)).toBe(before);
  });
});

describe('nobody decides on their own registration (issue 26 §3)', () => {
  const t = testAppForBlock();

  it('refuses a staff member approving, rejecting or asking changes of a registration they filed (403)', async () => {
    const applicant = await registeredCustomer(t);
    await t.pool.query('update users set is_staff = true where id = $1', [applicant.id]);
    const sentence =
      'You filed this registration, so you cannot decide on it: another reviewer must approve, reject or request changes.';
    for (const [path, body] of [
      ['kyc-approval', { approved: true }],
      ['kyc-approval', { approved: false, reason: 'No.' }],
      ['kyc-changes-request', { note: 'Change it.' }],
    ] as const) {
      const response = await applicant.client.post(`${A}/onboarding/${path}`, {
        registrationId: applicant.registrationId,
        ...body,
      });
      expect(response.statusCode, path).toBe(403);
      expect(response.json().errorMessage).toBe(sentence);
    }
    const row = await t.pool.query('select status, reviewed_by from registrations where id = $1', [
      applicant.registrationId,
    ]);
    expect(row.rows[0]).toEqual({ status: 'submitted', reviewed_by: null });

    // The console leaves the buttons out and says why; its approval page leads back there.
    const page = await applicant.client.get(`${CONSOLE}/registrations/${applicant.registrationId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(sentence);
    expect(page.body).not.toContain('Approve…');
    expect(page.body).not.toContain('class="reject"');
    expect(page.body).not.toContain('Request changes</button>');
    const approve = await applicant.client.get(
      `${CONSOLE}/registrations/${applicant.registrationId}/approve`,
    );
    expect(approve.statusCode).toBe(303);
  });

  it('refuses a reviewer of the registrant’s own organisation; another reviewer decides', async () => {
    const applicant = await registeredCustomer(t);
    const colleague = await signedInStaff(t);
    await t.pool.query('update users set organization_id = $2 where id = $1', [
      colleague.id,
      applicant.organizationId,
    ]);
    const refused = await colleague.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: applicant.registrationId,
      approved: true,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errorMessage).toBe(
      'This registration is of your own organisation, so you cannot decide on it: another reviewer must approve, reject or request changes.',
    );
    const other = await signedInStaff(t);
    const approved = await other.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: applicant.registrationId,
      approved: true,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const row = await t.pool.query('select reviewed_by from registrations where id = $1', [
      applicant.registrationId,
    ]);
    expect(row.rows[0].reviewed_by).toBe(other.id);
  });
});

describe('an application’s life in the audit trail (issue 26 §3)', () => {
  const t = testAppForBlock();

  it('records saves per step or minute, uploads, removals, consent, submission, refusals and the resubmission', async () => {
    const staff = await signedInStaff(t);
    const user = await signedIn(t);
    const example = structuredClone(testForm('individual').example) as Answers;
    const answers: Answers = { ...example, primaryEmailAddress: user.email };
    for (const key of ['photoId', 'photoIdBack', 'irsFormW2']) delete answers[key];
    const put = async (change: Answers, step: number) => {
      const current = ((await user.client.get(APPS)).json() as ApplicationResponse).application;
      const response = await user.client.request('PUT', APPS, {
        json: { answers: change, baseRevision: current?.revision ?? 0, step },
      });
      return response;
    };
    // Keystrokes on one step: the first save creates, the next is audited once, the rest not.
    expect((await put({ firstName: 'J' }, 0)).statusCode).toBe(200);
    expect((await put({ firstName: 'Ja' }, 0)).statusCode).toBe(200);
    expect((await put({ firstName: 'Jan' }, 0)).statusCode).toBe(200);
    expect((await put({ firstName: 'Jane' }, 0)).statusCode).toBe(200);
    // The next step: audited.
    expect((await put({ ...answers }, 1)).statusCode).toBe(200);
    const png = await photo('#336699');
    const w2 = await pdfBytes();
    expect((await upload(user.client, '/photoId', pngPart(png, 'front.png'))).statusCode).toBe(200);
    expect((await upload(user.client, '/photoIdBack', pngPart(png, 'back.png'))).statusCode).toBe(
      200,
    );
    const pdf: Part = {
      name: 'file',
      filename: 'w2.pdf',
      contentType: 'application/pdf',
      data: w2,
    };
    expect((await upload(user.client, '/irsFormW2', pdf)).statusCode).toBe(200);
    expect(
      (await user.client.request('DELETE', `${APPS}/files?pointer=/irsFormW2`)).statusCode,
    ).toBe(204);
    expect((await upload(user.client, '/irsFormW2', pdf)).statusCode).toBe(200);
    await giveEsignConsent(user.client);
    const held = await application(user.client);
    const submitted = await resubmitForm(user.client, testForm('individual'), held.answers);
    expect(submitted.statusCode, submitted.body).toBe(201);
    const registrationId = (submitted.json() as { registrationId: string }).registrationId;

    const asked = await staff.client.post(`${A}/onboarding/kyc-changes-request`, {
      registrationId,
      fields: [{ path: '/irsFormW2', note: 'Last year’s W-2, please.' }],
    });
    expect(asked.statusCode, asked.body).toBe(200);
    // Change mode: an unmarked answer and an unmarked file are refused, and audited.
    const reopened = await application(user.client);
    const unmarked = await user.client.request('PUT', APPS, {
      json: {
        answers: { ...reopened.answers, firstName: 'Janet' },
        baseRevision: reopened.revision,
      },
    });
    expect(unmarked.statusCode).toBe(409);
    expect(
      (await upload(user.client, '/photoId', pngPart(await photo('#992200')))).statusCode,
    ).toBe(409);
    expect(
      (await upload(user.client, '/irsFormW2', { ...pdf, filename: 'w2-2025.pdf' })).statusCode,
    ).toBe(200);
    const resubmitted = await resubmitForm(
      user.client,
      testForm('individual'),
      (await application(user.client)).answers,
    );
    expect(resubmitted.statusCode, resubmitted.body).toBe(201);

    const rows = await t.pool.query<{
      action: string;
      registration_id: string | null;
      detail: Record<string, unknown>;
    }>(
      `select action, registration_id, detail from audit_log
        where actor_user_id = $1 and action not in ('signup', 'signin', 'email.verified')
        order by seq`,
      [user.id],
    );
    expect(
      rows.rows.map((row) => [row.action, row.detail.field ?? row.detail.via ?? null]),
    ).toEqual([
      ['application.created', null],
      ['application.saved', null],
      ['application.saved', null],
      ['application.file-uploaded', '/photoId'],
      ['application.file-uploaded', '/photoIdBack'],
      ['application.file-uploaded', '/irsFormW2'],
      ['application.file-removed', '/irsFormW2'],
      ['application.file-uploaded', '/irsFormW2'],
      ['esign.consented', null],
      ['registration.submitted', null],
      ['application.change-refused', '/firstName'],
      ['application.change-refused', '/photoId'],
      ['application.file-uploaded', '/irsFormW2'],
      ['registration.changes-made', null],
    ]);
    const applicationId = rows.rows[0]!.detail.applicationId;
    expect(typeof applicationId).toBe('string');
    // Every event of the application names it; those after the registration name that too.
    for (const row of rows.rows.filter((r) => r.action.startsWith('application.'))) {
      expect(row.detail.applicationId).toBe(applicationId);
    }
    const refusals = rows.rows.filter((r) => r.action === 'application.change-refused');
    expect(refusals.map((r) => [r.registration_id, r.detail.via])).toEqual([
      [registrationId, 'save'],
      [registrationId, 'upload'],
    ]);
    // No file name, email or answer in any row.
    const text = JSON.stringify(rows.rows);
    for (const secret of ['front.png', 'w2-2025.pdf', user.email, 'Janet', '123-45-6789']) {
      expect(text).not.toContain(secret);
    }

    // The console lists them with the registration's own events, each once and in words.
    const page = await staff.client.get(`${CONSOLE}/registrations/${registrationId}`);
    const audit = page.body.slice(page.body.indexOf('id="audit-heading"'));
    for (const words of [
      'Started the application',
      'Saved the application',
      'Uploaded a file',
      'Removed a file',
      'Gave the e-sign consent',
      'Submitted',
      'Refused a change outside the request',
      'Resubmitted with the changes asked for',
    ]) {
      expect(audit, words).toContain(`<td>${words}</td>`);
    }
    expect(audit).not.toMatch(/<td>(application|registration|esign)\.[a-z-]+<\/td>/);
    expect(audit.match(/<td>Submitted<\/td>/g)).toHaveLength(1);
  });
});

describe('every signature keeps its own time (issue 26 §3)', () => {
  const t = testAppForBlock();

  it('records when each agreement was signed (the save that carried it) beside the submission time', async () => {
    const user = await signedIn(t);
    const form = testForm('individual');
    const example = structuredClone(form.example) as Answers;
    const documents = signedDocuments(form).filter((document) => document.pointer !== '');
    const agreements = documents.map((document) => document.pointer.slice(1));
    expect(agreements.length).toBeGreaterThan(1);
    const [first, ...rest] = agreements as [string, ...string[]];
    const unsigned = Object.fromEntries(agreements.map((key) => [key, false]));
    await giveEsignConsent(user.client);
    const save = async (answers: Answers) => {
      const current = ((await user.client.get(APPS)).json() as ApplicationResponse).application;
      const response = await user.client.request('PUT', APPS, {
        json: { answers, baseRevision: current?.revision ?? 0 },
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    await save({ ...unsigned });
    await save({ ...unsigned, [first]: true });
    const firstSigned = new Date();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await save({ ...unsigned, ...Object.fromEntries(agreements.map((key) => [key, true])) });
    // A signature removed and given again takes the new time.
    await save({ ...Object.fromEntries(agreements.map((key) => [key, true])), [rest[0]!]: false });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await save(Object.fromEntries(agreements.map((key) => [key, true])));
    const resignedAt = new Date();
    await new Promise((resolve) => setTimeout(resolve, 1100));

    const png = await photo('#224466');
    const w2 = await pdfBytes();
    const answers: Answers = {
      ...example,
      primaryEmailAddress: user.email,
      photoId: { name: 'front.png', type: 'image/png', size: png.length },
      photoIdBack: { name: 'back.png', type: 'image/png', size: png.length },
      irsFormW2: { name: 'w2.pdf', type: 'application/pdf', size: w2.length },
    };
    const pngBlob = () => new Blob([new Uint8Array(png)], { type: 'image/png' });
    const submittedAt = new Date();
    const response = await resubmitForm(user.client, form, answers, {
      '/photoId': pngBlob(),
      '/photoIdBack': pngBlob(),
      '/irsFormW2': new Blob([new Uint8Array(w2)], { type: 'application/pdf' }),
    });
    expect(response.statusCode, response.body).toBe(201);
    const registrationId = (response.json() as { registrationId: string }).registrationId;
    const evidence = await listSignatureEvidence(t.pool, registrationId);
    const byPointer = (key: string) =>
      evidence.find((item) => item.part === documents.find((d) => d.pointer === `/${key}`)!.part)!;
    for (const item of evidence) {
      expect(new Date(item.submittedAt).getTime()).toBeGreaterThanOrEqual(
        submittedAt.getTime() - 1000,
      );
      expect(item.signedAt).not.toBeNull();
      expect(new Date(item.signedAt!).getTime()).toBeLessThanOrEqual(
        new Date(item.submittedAt).getTime(),
      );
    }
    // The first agreement: signed at its own save, well before the submission.
    const firstItem = byPointer(first);
    expect(new Date(firstItem.signedAt!).getTime()).toBeLessThanOrEqual(firstSigned.getTime());
    expect(
      new Date(firstItem.submittedAt).getTime() - new Date(firstItem.signedAt!).getTime(),
    ).toBeGreaterThan(3000);
    // The one removed and signed again: the later time.
    const resigned = byPointer(rest[0]!);
    expect(new Date(resigned.signedAt!).getTime()).toBeGreaterThan(firstSigned.getTime());
    expect(new Date(resigned.signedAt!).getTime()).toBeLessThanOrEqual(resignedAt.getTime());

    // The console shows both times.
    const staff = await signedInStaff(t);
    const page = await staff.client.get(`${CONSOLE}/registrations/${registrationId}`);
    const section = page.body.slice(page.body.indexOf('id="evidence"'));
    const shown = (iso: string) =>
      `<span class="nowrap">${iso.slice(0, 10)}</span> <span class="nowrap">${iso.slice(11, 19)} UTC</span>`;
    expect(section).toContain(shown(firstItem.signedAt!));
    expect(section).toContain(`submitted ${shown(firstItem.submittedAt)}`);
  });
});

describe('the console’s tables keep words whole (issue 26 §4)', () => {
  const t = testAppForBlock();

  it('keeps clearing ids, emails and times whole, and the persons table’s # narrow', async () => {
    const staff = await signedInStaff(t);
    const applicant = await registeredCustomer(t);
    const page = (await staff.client.get(`${CONSOLE}/registrations/${applicant.registrationId}`))
      .body;
    expect(page).toMatch(/\(<span class="nowrap">NCF-\d{6}<\/span>\)/);
    const evidence = page.slice(page.indexOf('id="evidence"'));
    // An email is whole but for one break after its @ (the evidence table fits its column).
    const [local, domain] = applicant.email.split('@');
    expect(evidence).toContain(`<span>${local}@<wbr/>${domain}</span>`);
    // So is it in the facts above: a long one ran into the Organization beside it.
    expect(page).toContain(`<dt>Email</dt><dd>${local}@<wbr/>${domain}</dd>`);
    const list = (await staff.client.get(CONSOLE)).body;
    expect(list).toMatch(/<td><span class="nowrap">NCF-\d{6}<\/span><\/td>/);
    const css = (await staff.client.get(`${CONSOLE}/console.css`)).body;
    // `anywhere` split "walk-2@exa mple.c om" to fit narrow columns; `break-word` never does.
    // Only below the desktop breakpoint (a phone, issue 38 §3) may an answer break anywhere.
    const desktop = css.slice(0, css.indexOf('@media (max-width: 990.98px)'));
    expect(desktop.length).toBeGreaterThan(0);
    expect(desktop).not.toContain('overflow-wrap: anywhere');
    expect(css).toContain('.nowrap { white-space: nowrap; }');
    expect(css).toContain('table.answers.persons th { width: auto; }');
    expect(css).toMatch(/table\.persons td:first-child \{ width: 1%; white-space: nowrap; \}/);
  });
});
