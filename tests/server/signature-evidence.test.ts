import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedDocuments } from '../../src/shared/forms/payload/payload';
import { newFieldKey } from '../../src/server/fieldEncryption/keyRing';
import { auditRows, registeredBusiness, registeredCustomer, signedInStaff } from './adminHelpers';
import { runCli } from './cliRun';
import { createTestApp, type TestApp } from './testApp';
import { testForm } from '../forms';

const C = '/clearing/admin';
const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');
/** What the test helpers attach as every signed document (as a browser attaches what it fetched). */
const attached = sha256(fs.readFileSync('assets/pdfs/terms-of-service.pdf'));
const consent = sha256(fs.readFileSync('assets/pdfs/e-sign-consent.pdf'));

interface EvidenceRow {
  part: string;
  document_url: string;
  sha256: string;
  published_sha256: string | null;
  ip: string | null;
  user_agent: string | null;
  user_id: string;
  user_email: string;
  consent_sha256: string | null;
  signed_at: Date;
}

async function evidenceOf(t: TestApp, registrationId: string): Promise<EvidenceRow[]> {
  const result = await t.pool.query<EvidenceRow>(
    'select * from signature_evidence where registration_id = $1 order by part',
    [registrationId],
  );
  return result.rows;
}

describe('signature evidence', () => {
  let t: TestApp;
  let tmp: string;
  const keys = newFieldKey('k1');

  const admin = (args: string[]) =>
    runCli('src/cli/admin.ts', args, {
      DATABASE_URL: t.pool.options.connectionString,
      DATA_DIR: tmp,
      FIELD_ENCRYPTION_KEYS: keys,
      NODE_ENV: 'test',
    });

  beforeAll(async () => {
    t = await createTestApp({ fieldEncryptionKeys: keys });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-evidence-test-'));
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('records each agreement of an individual registration with the SHA-256 of the attached bytes', async () => {
    const customer = await registeredCustomer(t);
    const rows = await evidenceOf(t, customer.registrationId);
    expect(rows.map((row) => row.part).sort()).toEqual(
      signedDocuments(testForm('individual'))
        .map((d) => d.part)
        .sort(),
    );
    for (const row of rows) {
      expect(row.sha256).toBe(attached);
      expect(row.user_id).toBe(customer.id);
      expect(row.user_email).toBe(customer.email);
      expect(row.ip).toBeTruthy();
      expect(row.user_agent).toBe('lightMyRequest');
      expect(row.consent_sha256).toBe(consent);
      expect(row.signed_at).toBeInstanceOf(Date);
      // The published document's hash beside it: the same bytes only for the terms of service.
      expect(row.published_sha256 === row.sha256).toBe(
        row.document_url === '/assets/pdfs/terms-of-service.pdf',
      );
    }
    // Evidence is written once.
    await expect(
      t.pool.query('update signature_evidence set sha256 = $1', ['0'.repeat(64)]),
    ).rejects.toThrow(/never changed/);
  });

  it('records the business form’s agreements and its signed e-sign consent', async () => {
    const business = await registeredBusiness(t);
    const rows = await evidenceOf(t, business.registrationId);
    const parts = rows.map((row) => row.part);
    expect(parts).toContain('document.signature.businessInfo');
    expect(parts.sort()).toEqual(
      signedDocuments(testForm('business'))
        .map((d) => d.part)
        .sort(),
    );
    expect(rows.every((row) => row.sha256 === attached)).toBe(true);
  });

  it('the console shows it per agreement; the download holds the documents and evidence', async () => {
    const customer = await registeredCustomer(t);
    const staff = await signedInStaff(t);
    const page = await staff.client.get(`${C}/registrations/${customer.registrationId}`);
    expect(page.body).toContain('<h2 id="evidence">Signature evidence</h2>');
    expect(page.body).toContain(`title="${attached}"`);
    expect(page.body).toContain('I agree to the Futures Customer Agreement');
    expect(page.body).toContain(`signed as Jane O&#x27;Neill`);
    expect(page.body).toContain('/evidence.zip');

    const since = new Date();
    const download = await staff.client.get(
      `${C}/registrations/${customer.registrationId}/evidence.zip`,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="signature-evidence-NCF-\d{6}\.zip"/,
    );
    // Reproducible: the same registration gives the same bytes.
    const again = await staff.client.get(
      `${C}/registrations/${customer.registrationId}/evidence.zip`,
    );
    expect(again.rawPayload.equals(download.rawPayload)).toBe(true);
    expect(await auditRows(t, 'registration.document-downloaded', since)).toHaveLength(2);

    // Read with Info-ZIP (another implementation): CRCs test, the files are the documents.
    const zip = path.join(tmp, 'evidence.zip');
    fs.writeFileSync(zip, download.rawPayload);
    expect(execFileSync('unzip', ['-t', zip]).toString()).toContain('No errors detected');
    const out = path.join(tmp, 'unzipped');
    execFileSync('unzip', ['-q', '-o', zip, '-d', out]);
    const evidence = JSON.parse(fs.readFileSync(path.join(out, 'evidence.json'), 'utf8')) as {
      registrationId: string;
      agreements: { file: string; sha256: string; prompt: string; ipAddress: string }[];
    };
    expect(evidence.registrationId).toBe(customer.registrationId);
    expect(evidence.agreements).toHaveLength(signedDocuments(testForm('individual')).length);
    for (const agreement of evidence.agreements) {
      expect(sha256(fs.readFileSync(path.join(out, agreement.file)))).toBe(agreement.sha256);
      expect(agreement.sha256).toBe(attached);
    }
    // The standard tool checks the package on its own.
    expect(execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: out }).toString()).not.toMatch(
      /FAILED/,
    );
  });

  it('verify-evidence passes, then names the document after one byte changes in the database', async () => {
    const customer = await registeredCustomer(t);
    const ok = await admin(['verify-evidence', customer.registrationId]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(
      `All ${signedDocuments(testForm('individual')).length} signed documents of registration ${customer.registrationId} match their evidence.`,
    );

    // One byte of the signed Futures Customer Agreement, changed where it is stored.
    await t.pool.query(
      `update stored_file_chunks c set bytes = overlay(c.bytes placing '\\x25'::bytea from 200 for 1)
         from registration_documents d
        where d.storage_name = c.storage_name and c.seq = 0 and d.registration_id = $1
          and d.part = 'document.agreeFuturesCustomerAgreement'`,
      [customer.registrationId],
    );
    const changed = await admin(['verify-evidence', customer.email]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(
      /CHANGED {2}I agree to the Futures Customer Agreement \(\/assets\/pdfs\/futures-customer-agreement\.pdf\): signed [0-9a-f]{64}, stored now [0-9a-f]{64}/,
    );
    expect(changed.stdout.match(/^OK /gm)).toHaveLength(
      signedDocuments(testForm('individual')).length - 1,
    );
    expect(changed.stderr).toContain(
      '1 of 5 signed documents no longer match their evidence: I agree to the Futures Customer Agreement.',
    );
  });
});
