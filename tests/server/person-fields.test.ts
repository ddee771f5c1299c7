/**
 * Issue 16 §6: the person fields outside the registrations are checked with the person form
 * (schemas/person), so each of these calls refuses what the business registration's user step
 * refuses, with the schema's message, and accepts what it accepts. The expected messages are the
 * registration's own: the business form validated with the same answer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testForm } from '../forms';
import { deref } from '../../src/shared/forms/walk/schemaWalk';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { validateAnswers } from '../../src/shared/forms/validation/validateAnswers';
import {
  freshClient,
  lastLink,
  pdfBytes,
  pngBytes,
  postForm,
  signedIn,
  uniqueEmail,
  type Part,
} from './authHelpers';
import { createTestApp, type TestApp } from './testApp';

const API = '/exchange/api/web';
const SCRIPT_NAME = '<script>alert(1)</script>';

/** What the business registration says of `value` as the answer `key` (its user step). */
function registrationMessage(key: string, value: unknown): string {
  const answers: Answers = { ...testForm('business').example, [key]: value };
  const error = validateAnswers(testForm('business'), answers).errors.find(
    (e) => e.path === `/${key}`,
  );
  if (!error) throw new Error(`the business form accepts ${key} = ${JSON.stringify(value)}`);
  return error.message;
}

/** The business registration's prompt of an answer (its user step). */
function registrationPrompt(key: string): string {
  const schema = testForm('business').schema;
  return deref(schema.properties![key]!, schema).title!;
}

interface PersonAnswers {
  firstName: string;
  lastName: string;
  phoneNumber: string;
  photo: { filename: string; contentType: string; data: Buffer };
}

/** One call that takes the person fields, under its own part names. */
interface Route {
  name: string;
  parts: { firstName: string; lastName: string; phoneNumber: string; photoId: string };
  /** A caller ready to send the answers once (a new user, or a new invitation). */
  prepare(): Promise<{
    send(answers: PersonAnswers): ReturnType<typeof postForm>;
    details(): Promise<unknown>;
  }>;
}

describe('person fields outside the registrations', () => {
  let t: TestApp;
  let dataDir: string;
  let png: Buffer;
  let pdf: Buffer;
  let gif: Buffer;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-person-test-'));
    t = await createTestApp({ dataDir });
    png = await pngBytes();
    pdf = await pdfBytes();
    const { default: sharp } = await import('sharp');
    gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#884422' } })
      .gif()
      .toBuffer();
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const valid = (): PersonAnswers => ({
    firstName: 'Amara',
    lastName: "N'Dour-Smith",
    phoneNumber: '+12125550164',
    photo: { filename: 'id.png', contentType: 'image/png', data: png },
  });

  const toParts = (route: Route, answers: PersonAnswers): Part[] => [
    { name: route.parts.firstName, value: answers.firstName },
    { name: route.parts.lastName, value: answers.lastName },
    { name: route.parts.phoneNumber, value: answers.phoneNumber },
    { name: route.parts.photoId, ...answers.photo },
  ];

  const detailsOf = async (userId: string) =>
    (await t.pool.query('select details from users where id = $1', [userId])).rows[0]?.details;

  const snake = {
    firstName: 'first_name',
    lastName: 'last_name',
    phoneNumber: 'phone_number',
    photoId: 'photo_id',
  };

  /** An Administrator of an admitted organisation invites a new person; their acceptance call. */
  async function invitation(route: Route) {
    const admin = await signedIn(t);
    const org = await t.pool.query<{ id: string }>(
      `insert into organizations (name, clearing_org_id, kind, participant_status)
       values ('Acme Hedging', $1, 'business', 'approved') returning id`,
      [`NCF-${Math.floor(Math.random() * 1e9)}`],
    );
    const organizationId = org.rows[0]!.id;
    await t.pool.query(
      `update users set organization_id = $1, roles = '{Administrator}' where id = $2`,
      [organizationId, admin.id],
    );
    const email = uniqueEmail('invitee');
    const invite = await postForm(admin.client, `${API}/user/settings`, [
      { name: 'tag', value: 'invite_user' },
      { name: 'email', value: email },
    ]);
    expect(invite.statusCode).toBe(200);
    const token = lastLink(t, email, 'access_token').searchParams.get('access_token')!;
    const invitee = freshClient(t.app);
    return {
      send: (answers: PersonAnswers) =>
        postForm(invitee, `${API}/auth/invite/accept`, [
          { name: 'access_token', value: token },
          { name: 'organization_id', value: organizationId },
          { name: 'email', value: email },
          { name: 'password_text', value: 'Invited-Pass-5' },
          ...toParts(route, answers),
        ]),
      details: async () => {
        const row = await t.pool.query('select details from users where lower(email) = $1', [
          email,
        ]);
        return row.rows[0]?.details ?? null;
      },
    };
  }

  const routes: Route[] = [
    {
      name: 'auth/invite/accept',
      parts: snake,
      prepare() {
        return invitation(this);
      },
    },
    {
      name: 'registration/user',
      parts: {
        firstName: 'firstName',
        lastName: 'lastName',
        phoneNumber: 'phoneNumber',
        photoId: 'photoId',
      },
      async prepare() {
        const { client, id } = await signedIn(t);
        return {
          send: (answers) => postForm(client, `${API}/registration/user`, toParts(this, answers)),
          details: () => detailsOf(id),
        };
      },
    },
    {
      name: 'user/settings add_kyc',
      parts: snake,
      async prepare() {
        const { client, id } = await signedIn(t);
        return {
          send: (answers) =>
            postForm(client, `${API}/user/settings`, [
              { name: 'tag', value: 'add_kyc' },
              ...toParts(this, answers),
            ]),
          details: () => detailsOf(id),
        };
      },
    },
    {
      name: 'user/settings modify_kyc',
      parts: snake,
      async prepare() {
        const { client, id } = await signedIn(t);
        await t.pool.query('update users set details = $1 where id = $2', [
          { firstName: 'Ada', lastName: 'Byron', phoneNumber: '+12125550142', approved: true },
          id,
        ]);
        return {
          send: (answers) =>
            postForm(client, `${API}/user/settings`, [
              { name: 'tag', value: 'modify_kyc' },
              ...toParts(this, answers),
            ]),
          details: () => detailsOf(id),
        };
      },
    },
  ];

  describe.each(routes)('$name', (route) => {
    it('refuses a script-tag name, a national phone number and a GIF photo ID with the registration’s messages, storing nothing', async () => {
      const caller = await route.prepare();
      const before = await caller.details();
      const refusals: [Partial<PersonAnswers>, keyof Route['parts'], string][] = [
        [{ firstName: SCRIPT_NAME }, 'firstName', registrationMessage('firstName', SCRIPT_NAME)],
        [{ lastName: SCRIPT_NAME }, 'lastName', registrationMessage('lastName', SCRIPT_NAME)],
        [
          { phoneNumber: '2125550142' },
          'phoneNumber',
          registrationMessage('phoneNumber', '2125550142'),
        ],
        // A GIF is refused by its content, before validation, as the registration's upload
        // refuses it: named by the same prompt (issue 20's one image rule, JPEG/PNG/WebP/HEIC).
        [
          { photo: { filename: 'id.gif', contentType: 'image/gif', data: gif } },
          'photoId',
          `The file for ${registrationPrompt('photoId')} must be an image or a PDF.`,
        ],
      ];
      for (const [change, key, message] of refusals) {
        const response = await caller.send({ ...valid(), ...change });
        expect(response.statusCode, key).toBe(400);
        expect(response.json()).toEqual({
          errorMessage: message,
          code: key === 'photoId' ? 'upload_refused' : 'validation_failed',
          errors: { [route.parts[key]]: message },
        });
      }
      expect(await caller.details()).toEqual(before);
      // Nothing was used up by the refusals: the same caller's valid answers go through.
      const accepted = await caller.send(valid());
      expect(accepted.statusCode).toBe(200);
      expect(await caller.details()).toMatchObject({
        firstName: 'Amara',
        lastName: "N'Dour-Smith",
        phoneNumber: '+12125550164',
        approved: false,
      });
    });

    it('accepts a photo ID scanned as a PDF, as the registration does', async () => {
      const caller = await route.prepare();
      const response = await caller.send({
        ...valid(),
        photo: { filename: 'id-scan.pdf', contentType: 'application/pdf', data: pdf },
      });
      expect(response.statusCode).toBe(200);
      const documents = await t.pool.query(
        `select content_type from user_documents d join users u on u.id = d.user_id
          where u.details->>'firstName' = 'Amara' and d.content_type = 'application/pdf'`,
      );
      expect(documents.rowCount).toBeGreaterThan(0);
    });
  });

  it('a missing answer reads the registration’s required message', async () => {
    const caller = await routes[1]!.prepare();
    const response = await caller.send({ ...valid(), phoneNumber: '' });
    expect(response.statusCode).toBe(400);
    const required = testForm('business').schema.errorMessage as {
      required: Record<string, string>;
    };
    expect(response.json()).toEqual({
      errorMessage: required.required.phoneNumber,
      code: 'validation_failed',
      errors: { phoneNumber: required.required.phoneNumber },
    });
  });
});
