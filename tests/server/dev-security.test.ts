import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readConfig } from '../../src/server/config';
import { createOutboxMailer } from '../../src/server/mail/mailer';
import { createTestApp, type TestApp } from './testApp';

describe('the development start is not open to the network', () => {
  it('listens on loopback by default in development, anywhere with HOST or in production', () => {
    expect(readConfig({}).host).toBe('127.0.0.1');
    expect(readConfig({ NODE_ENV: 'development' }).host).toBe('127.0.0.1');
    expect(readConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(readConfig({ NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(readConfig({ NODE_ENV: 'production', HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
  });

  describe('/dev/outbox', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
      await t.mailer.send({ to: 'a@example.com', subject: 'Reset', text: 'http://x/reset?t=1' });
    });
    afterAll(async () => t.close());

    it('answers a request from this machine', async () => {
      for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        const response = await t.app.inject({ url: '/dev/outbox', remoteAddress });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toHaveLength(1);
      }
    });

    it('answers 404 (JSON, no links) to any other address, whatever the headers say', async () => {
      for (const remoteAddress of ['192.168.1.20', '10.0.0.5', '::ffff:192.168.1.20']) {
        const response = await t.app.inject({
          url: '/dev/outbox',
          remoteAddress,
          headers: { 'x-forwarded-for': '127.0.0.1', host: 'localhost' },
        });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ errorMessage: 'Not found.', code: 'not_found' });
        expect(response.body).not.toContain('reset');
      }
    });

    it('answers 404 to a request that came through a proxy on this machine (issue 39 §4)', async () => {
      for (const headers of [
        { 'x-forwarded-for': '203.0.113.9' },
        { 'x-forwarded-for': '127.0.0.1' },
        { forwarded: 'for=203.0.113.9' },
      ]) {
        const response = await t.app.inject({
          url: '/dev/outbox',
          remoteAddress: '127.0.0.1',
          headers,
        });
        expect(response.statusCode, JSON.stringify(headers)).toBe(404);
        expect(response.body).not.toContain('reset');
      }
    });
  });

  describe('/dev/outbox behind a trusted proxy (TRUST_PROXY)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ trustProxy: ['127.0.0.1'] });
      await t.mailer.send({ to: 'a@example.com', subject: 'Reset', text: 'http://x/reset?t=1' });
    });
    afterAll(async () => t.close());

    it('answers no one, the proxy’s own requests without a forwarded header included', async () => {
      for (const headers of [{ 'x-forwarded-for': '203.0.113.9' }, {}]) {
        const response = await t.app.inject({
          url: '/dev/outbox',
          remoteAddress: '127.0.0.1',
          headers,
        });
        expect(response.statusCode, JSON.stringify(headers)).toBe(404);
        expect(response.json()).toEqual({ errorMessage: 'Not found.', code: 'not_found' });
      }
    });
  });

  it('keeps the outbox in a file of the data folder too, for a harness behind a proxy', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    const file = path.join(dir, 'dev-outbox.json');
    const mailer = createOutboxMailer(() => {}, { file });
    await mailer.send({ to: 'a@example.com', subject: 'One', text: 'http://x/one' });
    await mailer.send({ to: 'b@example.com', subject: 'Two', text: 'http://x/two' });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(mailer.outbox());
    expect(mailer.outbox().map((message) => message.links)).toEqual([
      ['http://x/one'],
      ['http://x/two'],
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
