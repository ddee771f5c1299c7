/**
 * Issue 20: every PDF of the corpus (tests/fixtures/pdf/corpus.ts) sent as the W-2 of an
 * individual registration, through the real route, app and database. Hostile documents are
 * refused with the active-content message and store nothing; legitimate ones (encrypted with an
 * empty user password, linearised, object streams, incremental updates, page open actions, web
 * links) are stored byte for byte; documents no viewer opens are refused as unreadable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testForm } from '../forms';
import { hostilePdfs, legitimatePdfs, unreadablePdfs } from '../fixtures/pdf/corpus';
import { signedIn } from './authHelpers';
import { IndividualRegistration, storedFiles } from './registrationHelpers';
import { createTestApp, type TestApp } from './testApp';

const W2 = testForm('individual').schema.properties!.irsFormW2!.title!;
const ACTIVE = `The file for ${W2} contains active content (scripts, automatic actions or embedded files), which we do not accept. Please save or print it as a plain PDF and upload that.`;
const UNREADABLE = `The file for ${W2} is not a readable PDF.`;

const blob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)], { type: 'application/pdf' });

describe('PDF uploads judged as viewers read them, through the registration route', () => {
  let t: TestApp;
  let registration: IndividualRegistration;

  beforeAll(async () => {
    t = await createTestApp();
    registration = await IndividualRegistration.create();
  });
  afterAll(async () => t.close());

  it.each(Object.entries(hostilePdfs()))('refuses %s, storing nothing', async (_name, pdf) => {
    const { client, email, id } = await signedIn(t);
    const before = await storedFiles(t);
    const response = await registration.submit(client, email, { '/irsFormW2': blob(pdf) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errorMessage: ACTIVE,
      code: 'upload_refused',
      errors: { '/irsFormW2': ACTIVE },
    });
    expect(await storedFiles(t)).toEqual(before);
    const count = await t.pool.query(
      'select count(*)::int as n from registrations where user_id = $1',
      [id],
    );
    expect(count.rows[0].n).toBe(0);
  });

  it.each(Object.entries(legitimatePdfs()))('accepts %s, stored as sent', async (_name, pdf) => {
    const { client, email, id } = await signedIn(t);
    const response = await registration.submit(client, email, { '/irsFormW2': blob(pdf) });
    expect(response.statusCode, response.body).toBe(201);
    const stored = await t.pool.query<{ bytes: Buffer; content_type: string }>(
      `select stored_file_bytes(f.storage_name) as bytes, f.content_type from registration_documents d
         join registrations r on r.id = d.registration_id
         join stored_files f on f.storage_name = d.storage_name
        where r.user_id = $1 and d.part = 'irsFormW2'`,
      [id],
    );
    expect(stored.rows[0]!.content_type).toBe('application/pdf');
    expect(Buffer.compare(stored.rows[0]!.bytes, pdf)).toBe(0);
  });

  it.each(Object.entries(unreadablePdfs()))('refuses %s as unreadable', async (_name, pdf) => {
    const { client, email } = await signedIn(t);
    const before = await storedFiles(t);
    const response = await registration.submit(client, email, { '/irsFormW2': blob(pdf) });
    expect(response.statusCode).toBe(400);
    expect(response.json().errorMessage).toBe(UNREADABLE);
    expect(await storedFiles(t)).toEqual(before);
  });
});
