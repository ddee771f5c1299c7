import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import {
  DEV_KEY_FILE,
  FieldKeyError,
  loadFieldKeys,
  newFieldKey,
  parseFieldKeys,
} from '../../src/server/fieldEncryption/keyRing';
import { rotateFieldKeys } from '../../src/server/fieldEncryption/rotateKeys';
import {
  openRegistrationAnswers,
  registrationContext,
  sealRegistration,
  sensitivePayloadTrace,
} from '../../src/server/fieldEncryption/registrationSealing';
import { isSealed, openSealed, sealAt } from '../../src/server/fieldEncryption/sealedJson';
import { canonicalJson } from '../../src/shared/forms/model/bundleForm';
import { omitHiddenAnswers } from '../../src/shared/forms/walk/answers';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { toPayloadJson } from '../../src/shared/forms/payload/payload';
import {
  auditRows,
  postForm,
  registeredBusiness,
  registeredCustomer,
  signedInStaff,
} from './adminHelpers';
import { createTestApp, TestClient, type TestApp } from './testApp';
import { testForm } from '../forms';

const C = '/clearing/admin';
const K1 = newFieldKey('k1');
const K2 = newFieldKey('k2');

/** Everything a registration stores about its answers, as PostgreSQL holds the text. */
async function rawRows(t: TestApp, registrationId: string): Promise<string> {
  const registration = await t.pool.query<{ text: string }>(
    `select answers::text || payload::text as text from registrations where id = $1`,
    [registrationId],
  );
  const persons = await t.pool.query<{ text: string }>(
    `select answers::text as text from registration_persons where registration_id = $1`,
    [registrationId],
  );
  return [...registration.rows, ...persons.rows].map((row) => row.text).join('\n');
}

/** The same database seen by a server configured with `keys`. */
async function appWithKeys(t: TestApp, keys: string): Promise<FastifyInstance> {
  const app = await buildApp({
    config: { ...t.config, fieldEncryptionKeys: keys },
    pool: t.pool,
    mailer: t.mailer,
    logger: false,
  });
  await app.ready();
  return app;
}

/** A staff client of `app` (the session lives in the shared database). */
function staffClientOf(app: FastifyInstance, staff: { client: TestClient }): TestClient {
  const client = new TestClient(app);
  for (const [name, value] of staff.client.cookies) client.cookies.set(name, value);
  return client;
}

describe('sensitive answers encrypted at rest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ fieldEncryptionKeys: K1 });
  });
  afterAll(async () => t?.close());

  it('stores no plain SSN or date of birth of an individual registration', async () => {
    const customer = await registeredCustomer(t);
    const raw = await rawRows(t, customer.registrationId);
    expect(raw).toContain('Jane'); // the rest stays readable to the database
    for (const plain of ['123-45-6789', '123456789', '04/17/1985', '1985-04-17']) {
      expect(raw).not.toContain(plain);
    }
    expect(raw).toContain('"$sealed": "v1.k1.');
    // The submission's hash is keyed: no guessing the SSN and date of birth against it.
    const stored = await t.pool.query<{ submission_hash: string }>(
      'select submission_hash from registrations where id = $1',
      [customer.registrationId],
    );
    const plainHash = crypto
      .createHash('sha256')
      .update(
        canonicalJson({
          formId: 'individual',
          answers: openRegistrationAnswers(
            t.app.fieldKeys,
            customer.registrationId,
            (
              await t.pool.query<{ answers: unknown }>(
                'select answers from registrations where id = $1',
                [customer.registrationId],
              )
            ).rows[0]!.answers,
          ),
        }),
      )
      .digest('hex');
    expect(stored.rows[0]!.submission_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0]!.submission_hash).not.toBe(plainHash);
  });

  it('stores no plain SSN, passport number or date of birth of a business or its persons', async () => {
    const business = await registeredBusiness(t);
    const raw = await rawRows(t, business.registrationId);
    expect(raw).toContain('Okafor');
    for (const plain of [
      '123-45-6789',
      'PA1234567',
      '02/03/1975',
      '1975-02-03',
      '11/22/1969',
      '1969-11-22',
    ]) {
      expect(raw).not.toContain(plain);
    }
    const persons = await t.pool.query<{ text: string }>(
      'select answers::text as text from registration_persons where registration_id = $1',
      [business.registrationId],
    );
    expect(persons.rows.length).toBeGreaterThan(0);
    for (const row of persons.rows) expect(row.text).toContain('$sealed');
  });

  it('a sealed value moved to another registration does not open there', async () => {
    const first = await registeredCustomer(t);
    const second = await registeredCustomer(t);
    const staff = await signedInStaff(t);
    // Copy the first registration's sealed payload over the second's.
    await t.pool.query(
      `update registrations set payload = (select payload from registrations where id = $1)
        where id = $2`,
      [first.registrationId, second.registrationId],
    );
    const page = await staff.client.get(`${C}/registrations/${second.registrationId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('their encryption does not verify');
    expect(page.body).not.toContain('123-45-6789');
  });

  it('the console reveal shows the decrypted value and is audited', async () => {
    const customer = await registeredCustomer(t);
    const staff = await signedInStaff(t);
    const url = `${C}/registrations/${customer.registrationId}`;
    const page = await staff.client.get(url);
    expect(page.body).toContain('•••-••-6789');
    expect(page.body).not.toContain('123-45-6789');
    const since = new Date();
    const revealed = await postForm(staff.client, `${url}/reveal`, {
      field: '/dateOfBirth',
    });
    expect(revealed.statusCode).toBe(200);
    expect(revealed.body).toContain('04/17/1985');
    expect(revealed.body).not.toContain('123-45-6789');
    expect(await auditRows(t, 'registration.revealed', since)).toEqual([
      expect.objectContaining({
        actor_user_id: staff.id,
        registration_id: customer.registrationId,
        detail: { field: '/dateOfBirth' },
      }),
    ]);
  });

  it('rotation: encrypted under k1, rotated to k2, k1 removed, still readable', async () => {
    const business = await registeredBusiness(t);
    const staff = await signedInStaff(t);
    const counts = await rotateFieldKeys(t.pool, parseFieldKeys(`${K2},${K1}`), t.app.forms);
    expect(counts.resealed).toBeGreaterThan(0);
    // The registration whose sealed payload was copied from another (above) is named, not lost.
    expect(counts.unreadable).not.toContain(`registration ${business.registrationId}`);
    const raw = await rawRows(t, business.registrationId);
    expect(raw).not.toContain('"v1.k1.');
    expect(raw).toContain('"v1.k2.');
    // Run again: nothing left to do (a stopped run resumes the same way).
    const again = await rotateFieldKeys(t.pool, parseFieldKeys(`${K2},${K1}`), t.app.forms);
    expect(again.resealed).toBe(0);
    expect(again.current).toBe(counts.resealed + counts.current);
    expect(again.unreadable).toEqual(counts.unreadable);

    const k2Only = await appWithKeys(t, K2);
    try {
      const client = staffClientOf(k2Only, staff);
      const url = `${C}/registrations/${business.registrationId}`;
      // The page open since before the removal posts at once: its CSRF token is bound under the
      // CSRF keys, which removing k1 leaves alone (issue 39 §5).
      const revealed = await postForm(client, `${url}/reveal`, {
        field: '/affiliatedPersons/1/passportNumber',
      });
      expect(revealed.statusCode).toBe(200);
      expect(revealed.body).toContain('PA1234567');
    } finally {
      await k2Only.close();
    }
  });

  it('rotate-key encrypts answers stored before encryption', async () => {
    const business = await registeredBusiness(t);
    // As an earlier version stored it: the same answers and payload, in the clear.
    const plain = omitHiddenAnswers(testForm('business'), business.answers);
    await t.pool.query('update registrations set answers = $2, payload = $3 where id = $1', [
      business.registrationId,
      JSON.stringify(plain),
      JSON.stringify(toPayloadJson(testForm('business'), plain).parts),
    ]);
    expect(await rawRows(t, business.registrationId)).toContain('PA1234567');
    const counts = await rotateFieldKeys(t.pool, parseFieldKeys(K1), t.app.forms);
    expect(counts.sealedFirstTime).toBe(4); // two dates of birth, an SSN, a passport number
    expect(await rawRows(t, business.registrationId)).not.toContain('PA1234567');
    const staff = await signedInStaff(t);
    const revealed = await postForm(
      staff.client,
      `${C}/registrations/${business.registrationId}/reveal`,
      { field: '/affiliatedPersons/1/passportNumber' },
    );
    expect(revealed.body).toContain('PA1234567');
  });

  it('a missing key: the page says so in a sentence, a reveal too, never a 500', async () => {
    const customer = await registeredCustomer(t);
    const staff = await signedInStaff(t);
    const other = await appWithKeys(t, newFieldKey('k9'));
    try {
      const client = staffClientOf(other, staff);
      const url = `${C}/registrations/${customer.registrationId}`;
      const page = await client.get(url);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(
        'is not given. Ask an operator to add it to FIELD_ENCRYPTION_KEYS.',
      );
      expect(page.body).toContain('Jane');
      const reveal = await postForm(client, `${url}/reveal`, { field: '/socialSecurityNumber' });
      expect(reveal.statusCode).toBe(503);
      expect(reveal.body).toContain('encrypted under the key k');
      expect(reveal.body).not.toContain('123-45-6789');
    } finally {
      await other.close();
    }
  });
});

describe('the key ring from configuration', () => {
  it('production refuses to start without FIELD_ENCRYPTION_KEYS, in one sentence', () => {
    expect(() =>
      loadFieldKeys({ fieldEncryptionKeys: undefined, production: true, dataDir: '/nonexistent' }),
    ).toThrow(
      new FieldKeyError(
        'FIELD_ENCRYPTION_KEYS is not set: production needs the key that encrypts SSNs, passport numbers and dates of birth (see "Encryption at rest" in docs/operators.md).',
      ),
    );
  });

  it('refuses a malformed key list, naming what is wrong', () => {
    expect(() => parseFieldKeys('k1:c2hvcnQ=')).toThrow(/k1 .* not 32 bytes/);
    expect(() => parseFieldKeys('no-colon')).toThrow(/<key-id>:<base64 key>/);
    expect(() => parseFieldKeys(`${K1},${K1}`)).toThrow(/appears twice/);
    expect(parseFieldKeys(`${K2},${K1}`).current.id).toBe('k2');
  });

  it('development makes a key file in DATA_DIR (mode 600) and keeps using it', () => {
    const dataDir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'field-keys-'));
    try {
      const first = loadFieldKeys({ fieldEncryptionKeys: undefined, production: false, dataDir });
      const file = path.join(dataDir, DEV_KEY_FILE);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const second = loadFieldKeys({ fieldEncryptionKeys: undefined, production: false, dataDir });
      expect(second.current.id).toBe(first.current.id);
      expect(second.current.secret.equals(first.current.secret)).toBe(true);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('sealing a document', () => {
  it('gives every sealed value its own nonce, each opens to its value, a pointer named twice is sealed once', () => {
    const ring = parseFieldKeys(K1);
    const context = { column: 'applications.answers', row: 'test-row' };
    const document = {
      persons: Array.from({ length: 40 }, (_, index) => ({ ssn: `123-45-${1000 + index}` })),
      dob: '1980-01-02',
    };
    const pointers = [...document.persons.map((_, index) => `/persons/${index}/ssn`), '/dob'];
    const sealed = sealAt(ring, document, [...pointers, '/dob'], context);
    const envelopes = [...sealed.persons.map((person) => person.ssn), sealed.dob] as unknown[];
    expect(envelopes.every(isSealed)).toBe(true);
    const nonces = envelopes.map(
      (envelope) => (envelope as { $sealed: string }).$sealed.split('.')[2],
    );
    expect(new Set(nonces).size).toBe(pointers.length);
    expect(openSealed(ring, sealed, context)).toEqual(document);
    // The input is left as it was, deep down too (sealAt copies the way to each sealed value).
    expect(document.dob).toBe('1980-01-02');
    expect(document.persons[7]!.ssn).toBe('123-45-1007');
  });
});

/** The pointers of a document's envelopes. */
function sealedPlaces(document: unknown, pointer = ''): string[] {
  if (isSealed(document)) return [pointer];
  if (typeof document !== 'object' || document === null) return [];
  return Object.entries(document).flatMap(([key, child]) =>
    sealedPlaces(child, `${pointer}/${key}`),
  );
}

describe('sealing a registration', () => {
  const ring = parseFieldKeys(K1);
  const form = testForm('business');
  const answers = structuredClone(form.example) as Answers;
  const input = { registrationId: 'r1', answers, personsKey: form.registration?.persons };

  it('seals the payload where its serializer noted the sensitive answers, without serializing again', () => {
    const trace = sensitivePayloadTrace(form, answers);
    const payload = toPayloadJson(form, answers, undefined, undefined, trace).parts;
    // Serializing reads the form's uiSchema (the order of its questions); sealing never does.
    let serialized = 0;
    const counted = new Proxy(form, {
      get: (target, key) => {
        if (key === 'uiSchema') serialized++;
        return Reflect.get(target, key) as unknown;
      },
    });
    const traced = sealRegistration(ring, {
      ...input,
      form: counted,
      payload,
      payloadTrace: trace,
    });
    expect(serialized).toBe(0);
    const marked = sealRegistration(ring, { ...input, form: counted, payload });
    expect(serialized).toBeGreaterThan(0);
    // The same places as the markers find: two dates of birth, an SSN and a passport number.
    expect(sealedPlaces(traced.payload)).toHaveLength(4);
    expect(sealedPlaces(traced.payload)).toEqual(sealedPlaces(marked.payload));
    expect(openSealed(ring, traced.payload, registrationContext.payload('r1'))).toEqual(payload);
  });

  it('a trace that does not account for the payload given is not trusted: the markers find the places', () => {
    const trace = sensitivePayloadTrace(form, answers);
    toPayloadJson(form, answers, undefined, undefined, trace);
    const other = toPayloadJson(form, answers).parts;
    const sealed = sealRegistration(ring, { ...input, form, payload: other, payloadTrace: trace });
    expect(sealedPlaces(sealed.payload)).toHaveLength(4);
    expect(JSON.stringify(sealed.payload)).not.toContain('123-45-6789');
  });
});
