import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshClient, uniqueEmail } from './authHelpers';
import { createTestApp, type TestApp } from './testApp';

const API = '/exchange/api/web';

/** A loopback stand-in for Google's siteverify: token "good" passes with action "signup". */
function fakeSiteVerify() {
  const calls: URLSearchParams[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      calls.push(form);
      const token = form.get('response');
      const answer =
        form.get('secret') !== 'server-secret'
          ? { success: false }
          : token === 'good'
            ? { success: true, action: 'signup', score: 0.9 }
            : token === 'other-action'
              ? { success: true, action: 'login', score: 0.9 }
              : token === 'bot'
                ? { success: true, action: 'signup', score: 0.1 }
                : { success: false };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(answer));
    });
  });
  return { server, calls };
}

describe('sign-up with a captcha configured', () => {
  let t: TestApp;
  const fake = fakeSiteVerify();
  beforeAll(async () => {
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const { port } = fake.server.address() as AddressInfo;
    t = await createTestApp({
      recaptchaSiteKey: 'site-key',
      recaptchaSecret: 'server-secret',
      recaptchaVerifyUrl: `http://127.0.0.1:${port}/siteverify`,
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => fake.server.close(() => resolve()));
  });

  it('accepts a token the verifier passes for action signup, sending it form-encoded', async () => {
    const email = uniqueEmail();
    const response = await freshClient(t.app).post(`${API}/auth/signup`, {
      email,
      recaptchaToken: 'good',
      authOrigin: 'Clearing',
    });
    expect(response.statusCode).toBe(200);
    expect(fake.calls.at(-1)?.get('secret')).toBe('server-secret');
    expect(fake.calls.at(-1)?.get('response')).toBe('good');
    expect(t.mailer.outbox().some((m) => m.to === email)).toBe(true);
  });

  it.each([
    ['missing', undefined],
    ['failed', 'bad'],
    ['wrong action', 'other-action'],
    ['low score', 'bot'],
  ])('refuses a %s token with 400 and sends nothing', async (_label, recaptchaToken) => {
    const email = uniqueEmail();
    const response = await freshClient(t.app).post(`${API}/auth/signup`, {
      email,
      authOrigin: 'Clearing',
      ...(recaptchaToken ? { recaptchaToken } : {}),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errorMessage).toMatch(/captcha/);
    expect(t.mailer.outbox().some((m) => m.to === email)).toBe(false);
    const users = await t.pool.query('select 1 from users where email = $1', [email]);
    expect(users.rowCount).toBe(0);
  });
});
