import { describe, expect, it } from 'vitest';
import { checkForms } from '../../../src/shared/forms/check/checkForms';
import { projectSources } from '../../forms';

const ASSETS = [
  'terms-of-service',
  'risk-disclosures',
  'futures-customer-agreement',
  'arbitration-clause',
  'e-sign-consent',
  'corporate-guarantee-form',
  'authorized-signer-form',
].map((name) => `/assets/pdfs/${name}.pdf`);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test edits of loose JSON

/** Checks the forms with the business schema and the common files edited. */
function problemsWith(edit: (business: Json, commons: Json) => void) {
  const sources = projectSources();
  edit(sources.forms.business!.schema as Json, sources.commons as Json);
  return checkForms(sources, [], { assetFiles: ASSETS })
    .problems.filter((p) => p.file === 'schemas/business/business.schema.json')
    .map((p) => `${p.pointer}: ${p.message}`);
}

describe('forms check: documents, signatures, registration, list items', () => {
  it('passes the project schemas', () => {
    expect(problemsWith(() => {})).toEqual([]);
  });

  it('refuses a blank form to download marked as a signed agreement document', () => {
    expect(
      problemsWith((schema) => {
        const guarantee = schema.properties.corporateGuarantee;
        guarantee['x-document'] = guarantee['x-template'];
        delete guarantee['x-template'];
      }),
    ).toEqual([
      '/properties/corporateGuarantee/x-document: x-document is the PDF an agreement signs (a yes/no that must be true); a blank form the user downloads is x-template',
    ]);
  });

  it('refuses a template on a question that is not a file, and documents that do not exist', () => {
    expect(
      problemsWith((schema) => {
        schema.properties.bizName['x-template'] = '/assets/pdfs/corporate-guarantee-form.pdf';
        schema.properties.agreeTermsOfService['x-document'] = '/assets/pdfs/nowhere.pdf';
        schema['x-signatures'].businessInfo.document = 'https://example.com/consent.pdf';
      }),
    ).toEqual([
      '/properties/bizName/x-template: x-template (a blank form to download) belongs on a file answer',
      '/properties/agreeTermsOfService/x-document: no such document /assets/pdfs/nowhere.pdf',
      '/x-signatures/businessInfo/document: a document must be a PDF under /assets/pdfs/',
    ]);
  });

  it('checks that signatures, registration and prefill name what exists', () => {
    expect(
      problemsWith((schema) => {
        schema['x-signatures'].reviewInfo = { prompt: 'By clicking…' };
        schema['x-registration'].organizationName = ['businessName'];
        schema['x-registration'].persons = 'dba';
        schema.properties.email['x-prefill'] = 'user.phone';
      }),
    ).toEqual([
      '/properties/email/x-prefill: unknown prefill source user.phone',
      '/x-signatures/reviewInfo: x-signatures names no x-section reviewInfo',
      '/x-registration/organizationName/0: x-registration names no answer businessName',
      '/x-registration/persons: x-registration persons dba is not a list of records',
    ]);
  });

  it('reaches the fields inside a list’s items (each affiliated person)', () => {
    expect(
      problemsWith((_schema, commons) => {
        const person = commons['affiliated-person.schema.json'].$defs.affiliatedPerson;
        delete person.properties.addressRegion.title;
        person.properties.addressLocality['x-template'] = '/assets/pdfs/terms-of-service.pdf';
      }),
    ).toEqual([
      '/$defs/affiliatedPerson/properties/addressRegion: question has no title (prompt)',
      '/$defs/affiliatedPerson/properties/addressLocality/x-template: x-template (a blank form to download) belongs on a file answer',
    ]);
  });
});
