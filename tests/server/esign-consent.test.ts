/**
 * The e-sign consent (ESIGN 15 U.S.C. 7001(c), issue 17): stored per user and version (the
 * SHA-256 of the consent document as published), audited, asked once per version; a
 * registration with signatures but no consent is refused, and each signature's evidence names
 * the consent it relied on.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRows, registeredBusiness, registeredCustomer } from './adminHelpers';
import { ESIGN_CONSENT_URL, freshClient, giveEsignConsent, signedIn } from './authHelpers';
import { IndividualRegistration, URL_INDIVIDUAL } from './registrationHelpers';
import { createTestApp, type TestApp } from './testApp';

const version = crypto
  .createHash('sha256')
  .update(fs.readFileSync('assets/pdfs/e-sign-consent.pdf'))
  .digest('hex');
const wording = JSON.parse(fs.readFileSync('schemas/common/esign-consent.json', 'utf8')) as {
  missingMessage: string;
  changedMessage: string;
};

describe('e-sign consent', () => {
  let t: TestApp;
  let registration: IndividualRegistration;
  beforeAll(async () => {
    t = await createTestApp();
    registration = await IndividualRegistration.create();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is stored with its version, time, IP and user agent, audited, and answered as given from then on', async () => {
    const { client, id } = await signedIn(t);
    const before = await client.get(ESIGN_CONSENT_URL);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({
      version,
      document: '/assets/pdfs/e-sign-consent.pdf',
      consent: null,
    });

    const since = new Date(Date.now() - 1000);
    const given = await client.request('POST', ESIGN_CONSENT_URL, {
      json: { version },
      headers: { 'user-agent': 'ConsentTest/1.0' },
    });
    expect(given.statusCode).toBe(201);
    const consent = (given.json() as { consent: { id: string; givenAt: string } }).consent;
    const rows = await t.pool.query(
      'select user_id, document_url, consent_sha256, given_at, ip, user_agent from esign_consents where id = $1',
      [consent.id],
    );
    expect(rows.rows[0]).toMatchObject({
      user_id: id,
      document_url: '/assets/pdfs/e-sign-consent.pdf',
      consent_sha256: version,
      ip: expect.stringMatching(/^[0-9a-f.:]+$/),
      user_agent: 'ConsentTest/1.0',
    });
    expect(rows.rows[0].given_at.toISOString()).toBe(consent.givenAt);

    const audit = (await auditRows(t, 'esign.consented', since)).filter(
      (row) => row.actor_user_id === id,
    );
    expect(audit.map((row) => row.detail)).toEqual([{ consentId: consent.id, version }]);

    // Asked once per version: the page learns it is given; confirming again stores nothing new.
    expect((await client.get(ESIGN_CONSENT_URL)).json()).toMatchObject({ consent });
    const again = await client.post(ESIGN_CONSENT_URL, { version });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ consent });
    const count = await t.pool.query(
      'select count(*)::int as n from esign_consents where user_id = $1',
      [id],
    );
    expect(count.rows[0].n).toBe(1);
    expect(
      (await auditRows(t, 'esign.consented', since)).filter((r) => r.actor_user_id === id),
    ).toHaveLength(1);
    // Never changed once given.
    await expect(
      t.pool.query('update esign_consents set ip = $2 where id = $1', [consent.id, '10.0.0.1']),
    ).rejects.toThrow(/never changed/);
  });

  it('refuses a version that is not the published one, a missing CSRF header and a signed-out caller', async () => {
    const { client, id } = await signedIn(t);
    const stale = await client.post(ESIGN_CONSENT_URL, { version: '0'.repeat(64) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ errorMessage: wording.changedMessage, code: 'conflict' });

    const malformed = await client.post(ESIGN_CONSENT_URL, { version: 'latest' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      errorMessage: expect.any(String),
      code: 'validation_failed',
      errors: expect.any(Object),
    });

    const forged = await client.post(ESIGN_CONSENT_URL, { version }, { csrf: false });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toEqual({ errorMessage: expect.any(String), code: 'csrf_missing' });

    const anonymous = freshClient(t.app);
    for (const response of [
      await anonymous.get(ESIGN_CONSENT_URL),
      await anonymous.post(ESIGN_CONSENT_URL, { version }),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ errorMessage: expect.any(String), code: 'unauthorized' });
    }
    const stored = await t.pool.query(
      'select count(*)::int as n from esign_consents where user_id = $1',
      [id],
    );
    expect(stored.rows[0].n).toBe(0);
  });

  it('refuses a registration with signatures but no consent, storing nothing', async () => {
    const { client, email, id } = await signedIn(t);
    const { payload, contentType } = await registration.body(email);
    const response = await client.request('POST', URL_INDIVIDUAL, {
      payload,
      headers: { 'content-type': contentType },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ errorMessage: wording.missingMessage, code: 'conflict' });
    const stored = await t.pool.query(
      `select (select count(*)::int from registrations where user_id = $1) as registrations,
              (select organization_id from users where id = $1) as organization`,
      [id],
    );
    expect(stored.rows[0]).toEqual({ registrations: 0, organization: null });

    // Consented, the same submission is stored.
    await giveEsignConsent(client);
    const retry = await client.request('POST', URL_INDIVIDUAL, {
      payload,
      headers: { 'content-type': contentType },
    });
    expect(retry.statusCode).toBe(201);
  });

  it("names the consent in each signature's evidence, on either form", async () => {
    for (const registered of [await registeredCustomer(t), await registeredBusiness(t)]) {
      const consent = await t.pool.query<{ id: string }>(
        'select id from esign_consents where user_id = $1 and consent_sha256 = $2',
        [registered.id, version],
      );
      expect(consent.rows).toHaveLength(1);
      const evidence = await t.pool.query<{ esign_consent_id: string; consent_sha256: string }>(
        'select esign_consent_id, consent_sha256 from signature_evidence where registration_id = $1',
        [registered.registrationId],
      );
      expect(evidence.rows.length).toBeGreaterThan(0);
      for (const row of evidence.rows) {
        expect(row).toEqual({ esign_consent_id: consent.rows[0]!.id, consent_sha256: version });
      }
    }
  });
});
