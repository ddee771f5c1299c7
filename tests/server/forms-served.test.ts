import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  formDocumentSchema,
  formListSchema,
  type FormDocument,
  type FormList,
} from '../../src/shared/api/forms';
import type { ApplicationResponse } from '../../src/shared/api/applications';
import { AJV_OPTIONS, RJSF_VALIDATOR_OPTIONS } from '../../src/shared/forms/validation/ajvConfig';
import { servedForm } from '../../src/server/applications/servedForms';
import { publishedSha256 } from '../../src/server/signatures/signatureEvidence';
import { freshClient, signedIn } from './authHelpers';
import { testAppForBlock } from './testApp';
import { testForm } from '../forms';

const FORMS = '/exchange/api/web/forms';

/** Ajv as the portal sets it up (draft-07, ajv-errors, the project's keywords), with formats. */
function portalAjv(): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS });
  addFormats(ajv);
  return RJSF_VALIDATOR_OPTIONS.extenderFn!(ajv);
}

describe('the registration forms, served (issue 40 §1)', () => {
  const t = testAppForBlock();

  async function served(formId: string) {
    const user = await signedIn(t);
    const response = await user.client.get(`${FORMS}/${formId}`);
    expect(response.statusCode, response.body).toBe(200);
    return { user, response, form: response.json() as FormDocument };
  }

  it('lists the registration forms, in the choice order, each with its hash and URL', async () => {
    const user = await signedIn(t);
    const response = await user.client.get(FORMS);
    expect(response.statusCode, response.body).toBe(200);
    const { forms } = response.json() as FormList;
    expect(forms.map((form) => form.id)).toEqual(['individual', 'business']);
    expect(forms[0]).toEqual({
      id: 'individual',
      title: testForm('individual').schema.title,
      description: testForm('individual').schema.description ?? '',
      schemaHash: testForm('individual').hash,
      url: `${FORMS}/individual`,
    });
    // The forms a registration draws inside it, or asks at sign-up, are not answered alone.
    expect(forms.map((form) => form.id)).not.toContain('person');
    expect(forms.map((form) => form.id)).not.toContain('affiliated-person');
  });

  it('serves a form whole: schema, uiSchema, steps, its upload pointers and what they take', async () => {
    const { form, response } = await served('individual');
    const compiled = testForm('individual');
    expect(form.schema).toEqual(compiled.schema);
    expect(form.uiSchema).toEqual(compiled.uiSchema);
    expect(form.steps).toEqual(compiled.steps);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    // Self-contained: every reference is local and resolves in the served schema.
    const refs = JSON.stringify(form.schema).match(/"\$ref":"[^"]*"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ref).toMatch(/^"\$ref":"#\/\$defs\/[A-Za-z0-9]+"$/);
    expect(form.uploads.map((upload) => upload.pointer).sort()).toEqual([
      '/irsFormW2',
      '/photoId',
      '/photoIdBack',
    ]);
    const photo = form.uploads.find((upload) => upload.pointer === '/photoId')!;
    expect(photo).toMatchObject({ kind: 'image', maxBytes: 10 * 1024 * 1024 });
    expect(photo.accept).toEqual(['image/jpeg', 'image/png', 'image/webp', 'image/heic']);
    const w2 = form.uploads.find((upload) => upload.pointer === '/irsFormW2')!;
    expect(w2).toMatchObject({ kind: 'pdf', accept: ['application/pdf'] });
  });

  it('names each agreement’s document with the SHA-256 of the PDF served at its URL', async () => {
    const { form } = await served('business');
    expect(form.agreements.length).toBeGreaterThan(0);
    for (const agreement of form.agreements) {
      const url = new URL(agreement.url);
      expect(url.origin).toBe(t.config.publicUrl);
      const pdf = await freshClient(t.app).get(url.pathname);
      expect(pdf.statusCode, url.pathname).toBe(200);
      expect(pdf.headers['content-type']).toMatch(/^application\/pdf/);
      const sha256 = crypto.createHash('sha256').update(pdf.rawPayload).digest('hex');
      expect(agreement.sha256).toBe(sha256);
    }
  });

  it('serves the schemaHash a saved application records', async () => {
    const { user, form } = await served('individual');
    const saved = await user.client.request('PUT', '/exchange/api/web/applications/individual', {
      json: { answers: {}, baseRevision: 0, step: 0 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const read = await user.client.get('/exchange/api/web/applications/individual');
    const { application } = read.json() as ApplicationResponse;
    expect(application?.schemaHash).toBe(form.schemaHash);
    expect(form.schemaHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers in the shapes the document describes', async () => {
    const user = await signedIn(t);
    const ajv = new Ajv2020({ strict: false });
    const list = await user.client.get(FORMS);
    expect(ajv.validate(formListSchema, list.json()), ajv.errorsText()).toBe(true);
    for (const id of ['individual', 'business']) {
      const form = (await user.client.get(`${FORMS}/${id}`)).json() as FormDocument;
      expect(ajv.validate(formDocumentSchema, form), `${id}: ${JSON.stringify(ajv.errors)}`).toBe(
        true,
      );
      expect(form.agreements.every((agreement) => agreement.sha256 !== null)).toBe(true);
    }
  });

  it('answers 304 to an If-None-Match naming its ETag, and 200 to another', async () => {
    const { user, response } = await served('individual');
    const etag = response.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await user.client.get(`${FORMS}/individual`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stale = await user.client.get(`${FORMS}/individual`, { 'if-none-match': '"old"' });
    expect(stale.statusCode).toBe(200);
    // Another form has another tag.
    const business = await user.client.get(`${FORMS}/business`, { 'if-none-match': etag });
    expect(business.statusCode).toBe(200);
    expect(business.headers.etag).not.toBe(etag);
  });

  it('makes the answer again, with a new ETag, once a published document changes', async () => {
    const before = await servedForm(t.app, 'business');
    expect(await servedForm(t.app, 'business')).toBe(before);
    const replaced = (url: string) =>
      url.endsWith('/risk-disclosures.pdf') ? 'f'.repeat(64) : publishedSha256(url);
    const after = await servedForm(t.app, 'business', replaced);
    expect(after.etag).not.toBe(before.etag);
    const agreements = (JSON.parse(after.bodies.identity.toString()) as FormDocument).agreements;
    expect(agreements.find((a) => a.url.endsWith('/risk-disclosures.pdf'))?.sha256).toBe(
      'f'.repeat(64),
    );
    // Back as published: the tag the clients hold is good again.
    expect((await servedForm(t.app, 'business')).etag).toBe(before.etag);
  });

  it('answers 404 with errorMessage for an unknown form and for a form that is no registration', async () => {
    const user = await signedIn(t);
    for (const id of ['nonesuch', 'person', 'affiliated-person']) {
      const response = await user.client.get(`${FORMS}/${id}`);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual({
        errorMessage: 'There is no registration form of that name.',
        code: 'not_found',
      });
    }
  });

  it('answers 401 signed out, for the list and for a form', async () => {
    const client = freshClient(t.app);
    for (const url of [FORMS, `${FORMS}/individual`]) {
      const response = await client.get(url);
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toHaveProperty('errorMessage');
    }
  });

  it.each(['individual', 'business'])(
    'the served %s schema validates its example and refuses a broken answer',
    async (formId) => {
      const { form } = await served(formId);
      const validate = portalAjv().compile(form.schema);
      const example = structuredClone(testForm(formId).example);
      expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      const required = (form.schema.required as string[])[0]!;
      const broken = { ...example };
      delete broken[required];
      expect(validate(broken)).toBe(false);
      expect(validate.errors?.length).toBeGreaterThan(0);
    },
  );
});
