import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { previousStepCode } from '../totp';
import { TestClient, type TestApp } from './testApp';

let nextAddress = 1;

/**
 * A TestClient whose requests come from their own IP address, so the per-IP rate limits of one
 * test do not spill into the next.
 */
export function freshClient(app: FastifyInstance): TestClient {
  const n = nextAddress++;
  const remoteAddress = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const wrapped = {
    inject: (options: object) => app.inject({ ...options, remoteAddress }),
    backgroundJobs: app.backgroundJobs,
  } as unknown as FastifyInstance;
  return new TestClient(wrapped);
}

export const PASSWORD = 'Secret-Pass-1';

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}.${crypto.randomBytes(4).toString('hex')}@example.test`;
}

/** The last mailed link to `to` whose URL contains `part`. */
export function lastLink(t: TestApp, to: string, part: string): URL {
  const message = t.mailer
    .outbox()
    .filter((m) => m.to === to)
    .reverse()
    .find((m) => m.links.some((link) => link.includes(part)));
  const link = message?.links.find((l) => l.includes(part));
  if (!link) throw new Error(`no ${part} link mailed to ${to}`);
  return new URL(link);
}

/** Signs up and verifies through the API; returns the new user's id. */
export async function createVerifiedUser(
  t: TestApp,
  email = uniqueEmail(),
  password = PASSWORD,
): Promise<{ email: string; password: string; id: string }> {
  const client = freshClient(t.app);
  const signup = await client.post('/exchange/api/web/auth/signup', {
    email,
    authOrigin: 'Clearing',
  });
  if (signup.statusCode !== 200) throw new Error(`signup failed: ${signup.body}`);
  const link = lastLink(t, email, 'verify-email');
  const verify = await client.post('/exchange/api/web/auth/verify-email', {
    token: link.searchParams.get('access_token'),
    email,
    password,
  });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  const row = await t.pool.query<{ id: string }>('select id from users where email = $1', [email]);
  return { email, password, id: row.rows[0]!.id };
}

/** A signed-in client for a new verified user. */
export async function signedIn(t: TestApp, email = uniqueEmail()) {
  const user = await createVerifiedUser(t, email);
  const client = freshClient(t.app);
  const response = await client.post('/exchange/api/web/auth/signin', {
    email: user.email,
    password: user.password,
  });
  if (response.statusCode !== 200) throw new Error(`signin failed: ${response.body}`);
  return { client, ...user };
}

export const ESIGN_CONSENT_URL = '/exchange/api/web/esign-consent';

/**
 * Confirms the e-sign consent in force for a signed-in client, as the page's dialog does before
 * the first signature (a registration with signatures is refused without it); nothing is sent
 * when the consent is already given, and nothing for a signed-out client (null). Returns the
 * consent's id.
 */
export async function giveEsignConsent(client: TestClient): Promise<string | null> {
  const state = await client.get(ESIGN_CONSENT_URL);
  if (state.statusCode === 401) return null;
  if (state.statusCode !== 200) throw new Error(`esign-consent failed: ${state.body}`);
  const { version, consent } = state.json() as { version: string; consent: { id: string } | null };
  if (consent) return consent.id;
  const given = await client.post(ESIGN_CONSENT_URL, { version });
  // 200: a submission sent twice at once consented twice; the first consent stands.
  if (given.statusCode !== 201 && given.statusCode !== 200) {
    throw new Error(`esign-consent failed: ${given.body}`);
  }
  return (given.json() as { consent: { id: string } }).consent.id;
}

/** Turns 2FA on for a signed-in client; returns the secret. */
export async function enableTwoFactor(client: TestClient, password = PASSWORD): Promise<string> {
  const start = await client.post('/exchange/api/web/user/2fa', { password });
  const { secret } = start.json() as { secret: string };
  // Confirm with the previous step's code, so the current step is still free for sign-in tests.
  const confirm = await client.request('PATCH', '/exchange/api/web/user/2fa', {
    json: { totpCode: await previousStepCode(secret) },
  });
  if (confirm.statusCode !== 200) throw new Error(`2fa confirm failed: ${confirm.body}`);
  return secret;
}

export type Part =
  | { name: string; value: string }
  | { name: string; filename: string; contentType: string; data: Buffer };

/** A multipart/form-data body and its content type. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if ('filename' in part) {
      head += `; filename="${part.filename}"\r\nContent-Type: ${part.contentType}`;
    }
    chunks.push(Buffer.from(`${head}\r\n\r\n`));
    chunks.push('data' in part ? part.data : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** FormData encoded as the multipart body a browser sends for it, with its content type. */
export async function formDataBody(
  form: FormData,
): Promise<{ payload: Buffer; contentType: string }> {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type')!,
  };
}

/** Posts FormData through a client as a browser would (CSRF header included). */
export async function postFormData(client: TestClient, url: string, form: FormData) {
  const { payload, contentType } = await formDataBody(form);
  return client.request('POST', url, { payload, headers: { 'content-type': contentType } });
}

/** Sends a multipart POST through a client (CSRF header included). */
export function postForm(client: TestClient, url: string, parts: Part[]) {
  const { payload, headers } = multipart(parts);
  return client.request('POST', url, { payload, headers });
}

/** A small real PNG (decodes with sharp). */
export async function pngBytes(): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp({ create: { width: 16, height: 12, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
}

/** A small real one-page PDF (parses with pdf-lib). */
export async function pdfBytes(): Promise<Buffer> {
  const { PDFDocument } = await import('pdf-lib');
  const document = await PDFDocument.create();
  document.addPage();
  return Buffer.from(await document.save());
}
