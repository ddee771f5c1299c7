/**
 * A partner's integration end to end (issue 40, the test its Goals ask for), on the server with
 * a webhook receiver on loopback: an organisation's Administrator makes an API credential; the
 * partner's server, with the credential alone (no cookie, no CSRF header), registers a webhook
 * endpoint, is told of a change request, reads the status, fetches the served form, reads the
 * application, uploads the file asked for, submits, is told of the submission and reads the
 * status again. Every webhook post is checked with the partner's own signature check.
 *
 * What a credential may submit: it acts as the Administrator who made it (auth/apiCredentials.ts),
 * and an account registers once, so the submission a credential makes is that organisation's
 * registration sent again with the changes staff asked for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { ApplicationResponse } from '../../src/shared/api/applications';
import type { FormDocument } from '../../src/shared/api/forms';
import type { RegistrationOverview } from '../../src/shared/api/registration';
import { signedDocuments, toPayload } from '../../src/shared/forms/payload/payload';
import { testForm } from '../forms';
import { registeredCustomer, signedInStaff } from './adminHelpers';
import { multipart, PASSWORD, pdfBytes } from './authHelpers';
import { samplePdf } from './registrationHelpers';
import { testAppForBlock } from './testApp';
import { startReceiver, verifyWebhook, type Receiver } from './webhookReceiver';

const WEB = '/exchange/api/web';

describe('a partner integrates with credentials and webhooks alone (issue 40)', () => {
  const t = testAppForBlock();
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver.close());

  it('credentials → form → application → upload → submit → webhook → status', async () => {
    // The organisation's Administrator (who registered it) makes the credential, signed in.
    const administrator = await registeredCustomer(t);
    const made = await administrator.client.post(`${WEB}/user/api-credentials`, {
      name: 'Partner back office',
      scopes: ['applications:write', 'registrations:read', 'webhooks:manage'],
      password: PASSWORD,
    });
    expect(made.statusCode, made.body).toBe(201);
    const { secret: apiSecret } = made.json() as { secret: string };

    /** The partner's server: the credential only, never a cookie or a CSRF header. */
    const call = (
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      options: { json?: object; payload?: Buffer; headers?: Record<string, string> } = {},
    ): Promise<LightMyRequestResponse> =>
      t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${apiSecret}`, ...options.headers },
        ...(options.json ? { payload: options.json } : {}),
        ...(options.payload ? { payload: options.payload } : {}),
      });
    const status = async () =>
      ((await call('GET', `${WEB}/registration`)).json() as RegistrationOverview).registration
        ?.status;

    const endpoint = await call('POST', `${WEB}/webhooks/endpoints`, {
      json: {
        url: receiver.url,
        events: ['registration.submitted', 'registration.changes_requested'],
      },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const { secret: signingSecret } = endpoint.json() as { secret: string };

    /** The posts the worker makes now, each checked as the partner checks it; their bodies. */
    const told = async () => {
      const from = receiver.received.length;
      // A second on: a queued row's due time is the database's clock, in microseconds.
      const now = new Date(Date.now() + 1000);
      await t.app.webhookDelivery.tick(now);
      return receiver.received.slice(from).map((post) => {
        const header = String(post.headers['northstar-signature']);
        expect(
          verifyWebhook(signingSecret, header, post.body, Math.floor(now.getTime() / 1000)),
        ).toBe(true);
        return JSON.parse(post.body) as { type: string; data: Record<string, unknown> };
      });
    };

    // Staff ask for a new tax form; the partner is told, and reads the status.
    const staff = await signedInStaff(t);
    const asked = await staff.client.post('/exchange/api/admin/onboarding/kyc-changes-request', {
      registrationId: administrator.registrationId,
      fields: [{ path: '/irsFormW2', note: 'The W-2 is for the wrong year.' }],
    });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(await told()).toEqual([
      expect.objectContaining({
        type: 'registration.changes_requested',
        data: expect.objectContaining({
          registrationId: administrator.registrationId,
          status: 'changes_requested',
        }),
      }),
    ]);
    expect(await status()).toBe('changes_requested');

    // The served form says where the file goes and which wording the submission answers.
    const served = await call('GET', `${WEB}/forms/individual`);
    expect(served.statusCode).toBe(200);
    const form = served.json() as FormDocument;
    const w2 = form.uploads.find((upload) => upload.pointer === '/irsFormW2');
    expect(w2?.accept).toContain('application/pdf');

    // The application reopened with the change request; the new W-2 uploaded at its pointer.
    const application = async () =>
      ((await call('GET', `${WEB}/applications/individual`)).json() as ApplicationResponse)
        .application!;
    expect((await application()).status).toBe('changes_requested');
    const newW2 = await pdfBytes();
    const body = multipart([
      { name: 'pointer', value: w2!.pointer },
      { name: 'file', filename: 'w2-2025.pdf', contentType: 'application/pdf', data: newW2 },
    ]);
    const uploaded = await call('POST', `${WEB}/applications/individual/files`, body);
    expect(uploaded.statusCode, uploaded.body).toBe(200);

    // Submitted as change mode sends it: every answer, the files held by the server.
    const answers = (await application()).answers;
    expect(answers.irsFormW2).toMatchObject({ name: 'w2-2025.pdf' });
    const compiled = testForm('individual');
    expect(form.schemaHash).toBe(compiled.hash);
    const documents = Object.fromEntries(
      signedDocuments(compiled).map((d) => [
        d.url,
        new Blob([new Uint8Array(samplePdf)], { type: 'application/pdf' }),
      ]),
    );
    const kept = new Set(Object.keys(answers).map((key) => `/${key}`));
    const request = new Request('http://localhost/', {
      method: 'POST',
      body: toPayload(compiled, answers, {}, documents, kept),
    });
    const submitted = await call('POST', `${WEB}/registration/individual`, {
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type')! },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);

    // The partner is told, and reads the status with the credential.
    expect(await told()).toEqual([
      {
        id: expect.any(String),
        type: 'registration.submitted',
        createdAt: expect.any(String),
        data: {
          registrationId: administrator.registrationId,
          organizationId: administrator.organizationId,
          formId: 'individual',
          status: 'resubmitted',
          changedAt: expect.any(String),
        },
      },
    ]);
    expect(await status()).toBe('resubmitted');
    // No cookie was ever set for the partner's calls.
    expect(submitted.cookies).toEqual([]);
  });
});
