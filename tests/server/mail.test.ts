import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../../src/server/mail/smtpMailer';
import { links, resetPasswordMessage, verifyEmailMessage } from '../../src/server/mail/templates';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

describe('SMTP mailer', () => {
  let server: SMTPServer;
  let port: number;
  const received: Received[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers a message by SMTP with the firm as sender, and keeps no outbox', async () => {
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`);
    const link = links.verifyEmail('https://portal.example', 'a+b@example.test', 'TOKEN123');
    await mailer.send(verifyEmailMessage('a+b@example.test', link));
    mailer.close();
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['a+b@example.test']);
    expect(received[0]!.from).toBe('support@northstar-clearing.example');
    expect(received[0]!.raw).toMatch(/Subject: Verify your email for Northstar Clearing/);
    const text = received[0]!.raw
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    expect(text).toContain(link);
    expect(mailer.outbox()).toEqual([]);
  });

  it('fails loudly when the SMTP server is unreachable', async () => {
    const mailer = createSmtpMailer('smtp://127.0.0.1:1');
    await expect(
      mailer.send(resetPasswordMessage('x@example.test', 'https://x')),
    ).rejects.toThrow();
    mailer.close();
  });

  it('builds the links the specification names, with encoded parameters', () => {
    expect(links.verifyEmail('https://p.example', 'a+b@x.test', 't/k')).toBe(
      'https://p.example/clearing/user/verify-email?email=a%2Bb%40x.test&access_token=t%2Fk',
    );
    expect(links.resetPassword('https://p.example', 'u-1', 'tok')).toBe(
      'https://p.example/clearing/user/reset-password?access_token=tok&user_id=u-1',
    );
  });
});
