import nodemailer from 'nodemailer';
import { firm } from '../../shared/config/firm';
import type { Mailer } from './mailer';

/**
 * Production mailer: sends through the SMTP server at `smtpUrl`
 * (`smtp://user:pass@host:587`, `smtps://…:465`; nodemailer reads options from the URL).
 * Keeps no outbox.
 */
export function createSmtpMailer(
  smtpUrl: string,
  from = `"${firm.displayName}" <${firm.supportEmail}>`,
): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    },
    outbox: () => [],
    close: () => transport.close(),
  };
}
