import type { FastifyInstance } from 'fastify';
import { emailDigest } from '../audit/recordAuditEvent';
import { countHit } from '../db/rateLimits';

/**
 * Emails of one kind one address receives in an hour from requests anyone can make (sign-up's
 * verification or account-exists notice, a password reset link). Beyond it the request is answered
 * as ever and nothing is sent: 20 sign-ups and 20 resets for one address, from 40 addresses, sent
 * its owner 40 emails (issue 39 §4). Three: a link lost to a spam folder can be asked for twice
 * more.
 */
export const MAILS_PER_RECIPIENT_PER_HOUR = 3;

const HOUR_MS = 60 * 60 * 1000;

/**
 * Counts one email of `kind` to `email` (on every instance: the counter lives in PostgreSQL, keyed
 * by the address's keyed digest, never the address) and says whether it may be sent.
 */
export async function mayMail(
  app: FastifyInstance,
  kind: 'signup' | 'reset',
  email: string,
): Promise<boolean> {
  const { emailDigest: digest } = emailDigest(app.fieldKeys, email);
  const hit = await countHit(app.db, `mail-${kind}:${digest}`, HOUR_MS);
  return hit.count <= MAILS_PER_RECIPIENT_PER_HOUR;
}
