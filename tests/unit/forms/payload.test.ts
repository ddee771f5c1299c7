import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prefillAnswers, withReadOnlyPrefill } from '../../../src/shared/forms/model/prefill';
import {
  fromPayload,
  PayloadError,
  signedDocuments,
  type PayloadJson,
  toPayload,
  toPayloadJson,
} from '../../../src/shared/forms/payload/payload';
import { fixtureAnswers } from '../../../src/shared/forms/check/fixtures';
import { testForm } from '../../forms';
const form = testForm('individual');
const answers: Record<string, unknown> = {
  ...form.example,
  unsatisfiedDebts: true,
  unsatisfiedDebtsDetails: 'A medical bill in collection since 2023.',
  registeredWithCftcOrNfa: true,
  nfaIdNumber: '0123456',
};
/**
 * A golden payload file: its answers (a patch of the example) and what they send. After an
 * intended change, `npm run forms -- golden` records it again (forms check compares it too).
 */
const golden = (formId: string) =>
  JSON.parse(
    fs.readFileSync(
      path.resolve(__dirname, `../../fixtures/payloads/${formId}.golden.json`),
      'utf8',
    ),
  ) as { patch: unknown[]; payload: Record<string, unknown> };

const pdf = (text: string) => new Blob([`%PDF-1.4 ${text}`], { type: 'application/pdf' });
const image = () => new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' });
const files = { '/photoId': image(), '/photoIdBack': image(), '/irsFormW2': pdf('w2') };
const documents = Object.fromEntries(
  signedDocuments(testForm('individual')).map((d) => [d.url, pdf(d.url)]),
);

describe('toPayloadJson', () => {
  it('matches the golden payload (prompt + value per answer, sections, variants, files)', () => {
    const recorded = golden('individual');
    const payload = toPayloadJson(testForm('individual'), answers, files);
    const { schemaHash, ...stable } = payload;
    expect(schemaHash).toBe(form.hash);
    // The golden's answers are these, and send what it records, in the order it records.
    expect(fixtureAnswers('individual', form.example, { ...recorded, expectedErrors: [] })).toEqual(
      answers,
    );
    expect(JSON.stringify(stable)).toBe(JSON.stringify(recorded.payload));
  });

  it('sends the five signed documents', () => {
    expect(signedDocuments(testForm('individual')).map((d) => d.url)).toEqual([
      '/assets/pdfs/terms-of-service.pdf',
      '/assets/pdfs/e-sign-consent.pdf',
      '/assets/pdfs/futures-customer-agreement.pdf',
      '/assets/pdfs/risk-disclosures.pdf',
      '/assets/pdfs/arbitration-clause.pdf',
    ]);
  });

  it('does not send hidden answers', () => {
    const payload = toPayloadJson(testForm('individual'), {
      ...answers,
      marriedStatus: false,
      idType: 'passport',
    });
    const text = JSON.stringify(payload.parts);
    expect(text).not.toContain('numberOfDependents');
    expect(text).not.toContain('photoIdBack');
    expect(text).toContain('"variant":"NotMarried"');
    expect(text).toContain('"variant":"Passport"');
  });

  it.each([
    ['photoId', 'Must provide photoId!'],
    ['irsFormW2', 'Must provide W-2!'],
    ['typeOfTradingAccount', 'Must provide account type!'],
    ['annualIncome', 'Must provide annual income!'],
    ['approximateNetWorth', 'Must provide net worth!'],
    ['employmentStatus', 'Must provide employment status!'],
    ['employerName', 'Must provide employer name!'],
  ])('fails to build without %s', (key, message) => {
    const { [key]: _omitted, ...rest } = answers as Record<string, unknown>;
    expect(() => toPayloadJson(testForm('individual'), rest)).toThrow(
      new PayloadError(message, `/${key}`),
    );
  });

  it('fails to build without the nature of business when self-employed', () => {
    const { employmentNatureOfBusiness: _omitted, ...rest } = answers;
    expect(() =>
      toPayloadJson(testForm('individual'), { ...rest, employmentStatus: 'SelfEmployed' }),
    ).toThrow('Must provide nature of business!');
  });

  it('fails to build when a required file has no bytes or empty bytes', () => {
    expect(() =>
      toPayloadJson(testForm('individual'), answers, { ...files, '/photoId': new Blob([]) }),
    ).toThrow('Must provide photoId!');
    const { '/irsFormW2': _w2, ...withoutW2 } = files;
    expect(() => toPayloadJson(testForm('individual'), answers, withoutW2)).toThrow(
      'Must provide W-2!',
    );
  });

  it('leaves out the bytes of a file the application holds on the server (issue 17)', () => {
    const { '/irsFormW2': _w2, ...withoutW2 } = files;
    const held = new Set(['/irsFormW2']);
    const payload = toPayloadJson(testForm('individual'), answers, withoutW2, held);
    // The answer (its reference) still travels; only the bytes stay on the server.
    expect(payload.files.map((file) => file.pointer)).toContain('/irsFormW2');
    const data = toPayload(testForm('individual'), answers, withoutW2, documents, held);
    expect(data.get('irsFormW2')).toBeNull();
    expect(data.get('photoId')).toBeInstanceOf(Blob);
    // New bytes chosen for a held question are not sent either: the upload already replaced them.
    expect(
      toPayload(testForm('individual'), answers, files, documents, held).get('irsFormW2'),
    ).toBeNull();
  });
});

describe('toPayload and fromPayload', () => {
  it('builds multipart form data the server reads back into the same answers', async () => {
    const data = toPayload(testForm('individual'), answers, files, documents);
    expect(data.get('formId')).toBe('individual');
    expect(data.get('schemaHash')).toBe(form.hash);
    const photo = data.get('photoId') as File;
    expect(photo.name).toBe('license-front.jpg');
    expect(photo.size).toBe(4);
    const terms = data.get('document.agreeTermsOfService') as File;
    expect(terms.name).toBe('terms-of-service.pdf');
    expect(await terms.text()).toContain('terms-of-service');
    const names = [...new Set([...data.keys()])];
    expect(names).toEqual([
      'formId',
      'schemaHash',
      'userInfo',
      'individualInfo',
      'photoId',
      'photoIdBack',
      'irsFormW2',
      'document.agreeTermsOfService',
      'document.agreeDisclosureAndConsent',
      'document.agreeFuturesCustomerAgreement',
      'document.agreeRiskDisclosures',
      'document.agreeVoluntaryArbitrationClause',
    ]);

    const fields: Record<string, string> = {};
    for (const [name, value] of data) if (typeof value === 'string') fields[name] = value;
    const decoded = fromPayload(testForm('individual'), fields);
    expect(decoded.schemaHash).toBe(form.hash);
    expect(decoded.answers).toEqual(answers);
    expect(decoded.prompts['/mailingAddress/postalCode']).toBe('Postal code');
    expect(decoded.prompts['/firstName']).toBe('First name');
  });

  it('refuses a payload without its section parts', () => {
    expect(() => fromPayload(testForm('individual'), { userInfo: '{}' })).toThrow(
      'Missing payload part individualInfo',
    );
  });

  it('requires every signed document', () => {
    expect(() => toPayload(testForm('individual'), answers, files, {})).toThrow('was not provided');
  });
});

/** The business payload's `clearingRegistration.businessInfo` part. */
const businessInfoOf = (payload: PayloadJson) =>
  (payload.parts.clearingRegistration as Record<string, Record<string, unknown>>).businessInfo!;

describe('lists and sent values (business, affiliated person)', () => {
  const business = testForm('business').example;
  const persons = business.affiliatedPersons as Record<string, unknown>[];
  const fieldsOf = (formId: 'business' | 'affiliated-person', data: Record<string, unknown>) => {
    const payload = toPayloadJson(testForm(formId), data);
    return Object.fromEntries(
      Object.entries(payload.parts).map(([name, part]) => [name, JSON.stringify(part)]),
    );
  };

  it('sends an ownership section with prompts for each affiliated person', () => {
    const withIndirect = [persons[0], { ...persons[0], firstName: 'Ana', isDirect: 'indirect' }];
    const payload = toPayloadJson(testForm('business'), {
      ...business,
      affiliatedPersons: withIndirect,
    });
    const list = businessInfoOf(payload).affiliatedPersons as { value: unknown };
    expect(list.value).toHaveLength(2);
    const [first, second] = list.value as { prompt: string; value: Record<string, unknown> }[];
    expect(first!.prompt).toBe('Affiliated person 1');
    expect(second!.prompt).toBe('Affiliated person 2');
    const ownership = first!.value.ownership as Record<string, { prompt: string; value: unknown }>;
    expect(ownership.firstName).toEqual({ prompt: 'First name', value: persons[0]!.firstName });
    // Spec business §3.3: isDirect sent as a boolean, dob as yyyy-MM-dd.
    expect(ownership.isDirect).toMatchObject({ value: true, label: 'Direct' });
    expect(ownership.dob).toEqual({ prompt: 'Date of birth (MM/DD/YYYY)', value: '1975-02-03' });
    const secondOwnership = second!.value.ownership as Record<string, { value: unknown }>;
    expect(secondOwnership.isDirect!.value).toBe(false);
    // A list of names stays one answer with its prompt.
    expect(businessInfoOf(payload).dba).toEqual({
      prompt: 'Doing business as (DBA) names',
      value: business.dba,
    });
  });

  it('reads each person back with their answers as entered and their prompts', () => {
    const decoded = fromPayload(testForm('business'), fieldsOf('business', business));
    expect(decoded.answers.affiliatedPersons).toEqual(persons);
    expect(decoded.answers.dba).toEqual(business.dba);
    expect(decoded.prompts['/affiliatedPersons/0']).toBe('Affiliated person 1');
    expect(decoded.prompts['/affiliatedPersons/0/dob']).toBe('Date of birth (MM/DD/YYYY)');
  });

  it('sends and reads the affiliated-person form the same way', () => {
    const person = { ...testForm('affiliated-person').example, isDirect: 'indirect' };
    const payload = toPayloadJson(testForm('affiliated-person'), person);
    const ownership = payload.parts.ownership as Record<string, { value: unknown }>;
    expect(ownership.isDirect!.value).toBe(false);
    expect(ownership.dob!.value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(
      fromPayload(testForm('affiliated-person'), fieldsOf('affiliated-person', person)).answers,
    ).toEqual(person);
  });
});

describe('clearingRegistration (business)', () => {
  const business = testForm('business');
  // signerAuthorization 'no' with the signed form, so every kind of document is in the golden.
  const answers: Record<string, unknown> = {
    ...business.example,
    signerAuthorization: 'no',
    authorizationForm: {
      name: 'authorized-signer-signed.pdf',
      type: 'application/pdf',
      size: 2048,
    },
  };
  const businessFiles = (data: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(data)
        .filter(([, value]) => typeof value === 'object' && value && 'size' in value)
        .map(([key]) => [`/${key}`, pdf(key)]),
    );

  it('matches the golden payload: userInfo and businessInfo, persons, documents, signatures', () => {
    const recorded = golden('business');
    const payload = toPayloadJson(testForm('business'), answers, businessFiles(answers));
    const { schemaHash, ...stable } = payload;
    expect(schemaHash).toBe(business.hash);
    expect(Object.keys(payload.parts)).toEqual(['clearingRegistration']);
    expect(
      fixtureAnswers('business', business.example, { ...recorded, expectedErrors: [] }),
    ).toEqual(answers);
    expect(JSON.stringify(stable)).toBe(JSON.stringify(recorded.payload));
  });

  it('carries each step’s signature prompt, signed with the user’s name', () => {
    const parts = toPayloadJson(testForm('business'), answers).parts.clearingRegistration as Record<
      string,
      Record<string, unknown>
    >;
    const signatures = business.schema['x-signatures']!;
    expect(parts.userInfo!.signature).toEqual({
      prompt: signatures.userInfo!.prompt,
      value: 'Daniel Okafor',
    });
    expect(parts.businessInfo!.signature).toMatchObject({
      prompt: signatures.businessInfo!.prompt,
      document: { url: '/assets/pdfs/e-sign-consent.pdf', part: 'document.signature.businessInfo' },
    });
  });

  it('attaches the agreements’ PDFs, never the blank forms the user downloads', () => {
    const urls = signedDocuments(testForm('business')).map((d) => d.url);
    expect(urls).toEqual([
      '/assets/pdfs/terms-of-service.pdf',
      '/assets/pdfs/risk-disclosures.pdf',
      '/assets/pdfs/futures-customer-agreement.pdf',
      '/assets/pdfs/arbitration-clause.pdf',
      '/assets/pdfs/e-sign-consent.pdf',
    ]);
    const signer = { ...answers, signerAuthorization: 'yes' };
    const payload = toPayloadJson(testForm('business'), signer);
    const text = JSON.stringify(payload);
    expect(text).not.toContain('corporate-guarantee-form.pdf');
    expect(text).not.toContain('authorized-signer-form.pdf');
    // The signed guarantee is the user's upload; the signer form is not asked of a signatory.
    expect(payload.files.map((f) => f.part)).toContain('corporateGuarantee');
    expect(payload.files.map((f) => f.part)).not.toContain('authorizationForm');
    expect(businessInfoOf(payload).authorizationForm).toBeUndefined();
  });

  it('sends optional documents only when present', () => {
    const { corporateOrgChart: _chart, solicitation: _marketing, ...rest } = answers;
    const payload = toPayloadJson(testForm('business'), rest);
    expect(businessInfoOf(payload).corporateOrgChart).toBeUndefined();
    expect(payload.files.map((f) => f.part)).not.toContain('corporateOrgChart');
    expect(payload.files.map((f) => f.part)).not.toContain('solicitation');
  });

  it.each([
    ['photoId', 'Must provide photoId!'],
    ['bylawsOrLLCAgreement', 'Must provide bylaws!'],
    ['certificateOfInc', 'Must provide certificateOfInc!'],
    ['w8orw9', 'Must provide w8orw9!'],
    ['corporateGuarantee', 'Must provide corporate guarantee!'],
  ])('fails to build without %s (§5.6)', (key, message) => {
    const { [key]: _omitted, ...rest } = answers;
    expect(() => toPayloadJson(testForm('business'), rest)).toThrow(
      new PayloadError(message, `/${key}`),
    );
  });

  it('fails to build with an empty photo ID file (§5.6)', () => {
    expect(() =>
      toPayloadJson(testForm('business'), answers, {
        ...businessFiles(answers),
        '/photoId': new Blob([]),
      }),
    ).toThrow(new PayloadError('Must provide photoId!', '/photoId'));
  });

  it.each([
    ['addressRegion', 'Affiliated person 2: Must provide state!'],
    ['addressCountry', 'Affiliated person 2: Must provide country!'],
  ])('reaches inside each affiliated person: without %s (§5.6)', (key, message) => {
    const persons = structuredClone(answers.affiliatedPersons) as Record<string, unknown>[];
    persons[1]![key] = '  ';
    expect(() =>
      toPayloadJson(testForm('business'), { ...answers, affiliatedPersons: persons }),
    ).toThrow(new PayloadError(message, `/affiliatedPersons/1/${key}`));
  });

  it('reads the payload back into the same answers', () => {
    const data = toPayload(
      testForm('business'),
      answers,
      businessFiles(answers),
      Object.fromEntries(signedDocuments(testForm('business')).map((d) => [d.url, pdf(d.url)])),
    );
    expect((data.get('document.signature.businessInfo') as File).name).toBe('e-sign-consent.pdf');
    const fields: Record<string, string> = {};
    for (const [name, value] of data) if (typeof value === 'string') fields[name] = value;
    expect(Object.keys(fields)).toEqual(['formId', 'schemaHash', 'clearingRegistration']);
    expect(fromPayload(testForm('business'), fields).answers).toEqual(answers);
  });
});

describe('x-prefill', () => {
  it('prefills the signed-in email, read-only, for both forms', () => {
    expect(prefillAnswers(testForm('business'), { email: 'jane@example.com' })).toEqual({
      email: 'jane@example.com',
    });
    expect(prefillAnswers(testForm('individual'), { email: 'jane@example.com' })).toEqual({
      primaryEmailAddress: 'jane@example.com',
    });
    expect(prefillAnswers(testForm('affiliated-person'), { email: 'jane@example.com' })).toEqual(
      {},
    );
    expect(
      withReadOnlyPrefill(
        testForm('business'),
        { email: 'other@example.com', bizName: 'X' },
        {
          email: 'jane@example.com',
        },
      ),
    ).toEqual({ email: 'jane@example.com', bizName: 'X' });
  });
});
