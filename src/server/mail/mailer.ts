import fs from 'node:fs';

/** One email as the portal sends it; `links` lists the URLs in the text, for the dev outbox. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

export interface Mailer {
  send(message: Omit<MailMessage, 'links'>): Promise<void>;
  /** Messages kept in development (`GET /dev/outbox`); empty when mail goes out by SMTP. */
  outbox(): MailMessage[];
}

/** The file in the data folder a development server keeps its outbox in (main.ts). */
export const DEV_OUTBOX_FILE = 'dev-outbox.json';

const LINK = /https?:\/\/[^\s<>"]+/g;

/**
 * Development mailer: prints each message to the console and keeps it for `GET /dev/outbox`
 * and, given `file`, in that file too (a JSON array, rewritten whole after each message): what a
 * test harness reads when its portal sits behind a proxy, where the route answers nobody.
 * The console print is for the developer running the portal locally, not a production log.
 */
export function createOutboxMailer(
  print: (text: string) => void = console.log,
  options: { summary?: string; file?: string } = {},
): Mailer {
  const messages: MailMessage[] = [];
  return {
    async send(message) {
      const full = { ...message, links: message.text.match(LINK) ?? [] };
      messages.push(full);
      if (messages.length > 200) messages.shift();
      if (options.file) {
        // Whole or not at all: a reader never sees half a file.
        fs.writeFileSync(`${options.file}.tmp`, JSON.stringify(messages));
        fs.renameSync(`${options.file}.tmp`, options.file);
      }
      // `summary` (the server): one line pointing at the outbox, so emails do not break up the
      // log; otherwise (the operator CLI, which has no outbox) the whole message.
      print(
        options.summary
          ? `mail to ${full.to}: ${full.subject} (read it at ${options.summary})`
          : `\n--- mail to ${full.to}: ${full.subject}\n${full.text}\n---\n`,
      );
    },
    outbox: () => [...messages],
  };
}
