/**
 * Idempotency-Key on state-changing POSTs (issue 40 §6): the same key and body within 24 hours
 * answer the first answer again, another body 422, concurrent duplicates never both run, every
 * instance agrees (PostgreSQL), keys belong to their account or credential, old keys are cleaned.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { createPool } from '../../src/server/db/database';
import { createOutboxMailer } from '../../src/server/mail/mailer';
import {
  ANSWER_UNREADABLE,
  KEY_IN_PROGRESS,
  KEY_REUSED,
} from '../../src/server/plugins/idempotency';
import { registeredCustomer } from './adminHelpers';
import { ESIGN_CONSENT_URL, multipart, signedIn, type Part } from './authHelpers';
import { testAppForBlock, type TestClient } from './testApp';

const FILES = '/exchange/api/web/applications/individual/files';
const samplePdf = fs.readFileSync('assets/pdfs/terms-of-service.pdf');
const key = () => crypto.randomUUID();

async function consentVersion(client: TestClient): Promise<string> {
  return ((await client.get(ESIGN_CONSENT_URL)).json() as { version: string }).version;
}

function consent(client: TestClient, version: string, idempotencyKey: string) {
  return client.request('POST', ESIGN_CONSENT_URL, {
    json: { version },
    headers: { 'idempotency-key': idempotencyKey },
  });
}

const uploadParts = (data: Buffer): Part[] => [
  { name: 'pointer', value: '/irsFormW2' },
  { name: 'file', filename: 'w2.pdf', contentType: 'application/pdf', data },
];

/** The upload sent as a client library would: a new random boundary each time. */
function upload(client: TestClient, idempotencyKey: string, data = samplePdf) {
  const { payload, headers } = multipart(uploadParts(data));
  return client.request('POST', FILES, {
    payload,
    headers: { ...headers, 'idempotency-key': idempotencyKey },
  });
}

describe('Idempotency-Key (issue 40 §6)', () => {
  const t = testAppForBlock();

  const consents = async (userId: string) =>
    (
      await t.pool.query<{ n: number }>(
        'select count(*)::int as n from esign_consents where user_id = $1',
        [userId],
      )
    ).rows[0]!.n;

  it('answers the first answer again for the same key and body, and runs nothing twice', async () => {
    const user = await signedIn(t);
    const version = await consentVersion(user.client);
    const k = key();
    const first = await consent(user.client, version, k);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await consent(user.client, version, k);
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(await consents(user.id)).toBe(1);
    // Without the key the route runs (and says the consent was given already).
    const plain = await user.client.post(ESIGN_CONSENT_URL, { version });
    expect(plain.statusCode).toBe(200);
  });

  it('keeps an answer encrypted: a secret shown once is not in the database, and a body moved to another key does not open', async () => {
    const { client } = await registeredCustomer(t);
    const create = (idempotencyKey: string) =>
      client.request('POST', '/exchange/api/web/webhooks/endpoints', {
        json: { url: 'http://127.0.0.1:9/hooks', events: ['registration.approved'] },
        headers: { 'idempotency-key': idempotencyKey },
      });
    const k = key();
    const first = await create(k);
    expect(first.statusCode, first.body).toBe(201);
    const { secret } = first.json() as { secret: string };
    const stored = await t.pool.query<{ body: Buffer }>(
      'select body from idempotency_keys where key = $1',
      [k],
    );
    expect(stored.rows[0]!.body.toString('utf8')).not.toContain(secret);
    expect(stored.rows[0]!.body.toString('utf8')).not.toContain(
      Buffer.from(first.body).toString('base64').slice(0, 40),
    );
    const again = await create(k);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((again.json() as { secret: string }).secret).toBe(secret);
    // The sealed body copied onto another key's row (same route and body) does not open.
    const other = key();
    expect((await create(other)).statusCode).toBe(201);
    await t.pool.query(
      'update idempotency_keys set body = (select body from idempotency_keys where key = $1) where key = $2',
      [k, other],
    );
    const moved = await create(other);
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toMatchObject({ errorMessage: ANSWER_UNREADABLE });
  });

  it('answers 422 with errorMessage for the same key with another body or on another route', async () => {
    const user = await signedIn(t);
    const version = await consentVersion(user.client);
    const k = key();
    expect((await consent(user.client, version, k)).statusCode).toBe(201);
    const otherVersion = version.slice(0, -1) + (version.endsWith('0') ? '1' : '0');
    const otherBody = await consent(user.client, otherVersion, k);
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json().errorMessage).toBe(KEY_REUSED);
    const otherRoute = await upload(user.client, k);
    expect(otherRoute.statusCode).toBe(422);
    expect(otherRoute.json().errorMessage).toBe(KEY_REUSED);
  });

  it('keeps keys apart per account: another account’s same key runs', async () => {
    const [a, b] = [await signedIn(t), await signedIn(t)];
    const version = await consentVersion(a.client);
    const k = key();
    expect((await consent(a.client, version, k)).statusCode).toBe(201);
    const other = await consent(b.client, version, k);
    expect(other.statusCode).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await consents(b.id)).toBe(1);
  });

  it('replays a multipart upload sent again with a new boundary; another file is refused', async () => {
    const user = await signedIn(t);
    const k = key();
    const first = await upload(user.client, k);
    expect(first.statusCode, first.body).toBe(200);
    const again = await upload(user.client, k);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const revision = await t.pool.query<{ revision: number }>(
      'select revision from applications where user_id = $1',
      [user.id],
    );
    expect(revision.rows[0]!.revision).toBe(first.json().revision);
    const changed = Buffer.from(samplePdf);
    changed[changed.length - 20] = 0x20;
    const other = await upload(user.client, k, changed);
    expect(other.statusCode).toBe(422);
  });

  it('never runs concurrent duplicates both', async () => {
    const user = await signedIn(t);
    const version = await consentVersion(user.client);
    const k = key();
    const answers = await Promise.all([1, 2, 3].map(() => consent(user.client, version, k)));
    const ran = answers.filter(
      (a) => a.statusCode !== 409 && a.headers['idempotent-replayed'] === undefined,
    );
    expect(ran).toHaveLength(1);
    for (const answer of answers) {
      if (answer.statusCode === 409) expect(answer.json().errorMessage).toBe(KEY_IN_PROGRESS);
      else expect(answer.body).toBe(ran[0]!.body);
    }
    expect(await consents(user.id)).toBe(1);
  });

  it('refuses a malformed key with 400', async () => {
    const user = await signedIn(t);
    const answer = await consent(user.client, await consentVersion(user.client), 'a b');
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errorMessage).toEqual(expect.any(String));
  });

  it('replays on a second instance (the key is in PostgreSQL), which also cleans expired keys', async () => {
    const user = await signedIn(t);
    const version = await consentVersion(user.client);
    const k = key();
    const first = await consent(user.client, version, k);
    expect(first.statusCode).toBe(201);
    const expired = key();
    await t.pool.query(
      `insert into idempotency_keys (owner, key, route, fingerprint, created_at, status_code)
       values ($1, $2, 'x', 'y', now() - interval '25 hours', 200)`,
      [`user:${user.id}`, expired],
    );

    const pool = createPool(t.pool.options.connectionString!);
    const second = await buildApp({
      config: t.config,
      pool,
      mailer: createOutboxMailer(() => {}),
      logger: false,
    });
    try {
      const cookie = [...user.client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const replayed = await second.inject({
        method: 'POST',
        url: ESIGN_CONSENT_URL,
        payload: { version },
        headers: {
          cookie,
          'x-csrf-token': user.client.cookies.get('csrf_token')!,
          'idempotency-key': k,
        },
      });
      expect(replayed.statusCode).toBe(201);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toBe(first.body);
      await second.backgroundJobs.idle();
      const left = await t.pool.query('select 1 from idempotency_keys where key = $1', [expired]);
      expect(left.rowCount).toBe(0);
    } finally {
      await second.close();
      await pool.end();
    }
  });
});
