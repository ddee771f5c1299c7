/**
 * Issue 39 §4, email bombing: 20 sign-ups and 20 reset requests for one address, from 40
 * addresses, sent its owner 40 emails. Emails per recipient are capped per kind; the requester is
 * answered exactly as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAILS_PER_RECIPIENT_PER_HOUR } from '../../src/server/auth/mailCap';
import { createVerifiedUser, freshClient, uniqueEmail } from './authHelpers';
import { createTestApp, type TestApp } from './testApp';

const API = '/exchange/api/web';

describe('emails per recipient (issue 39 §4)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const mailsTo = (email: string) => t.mailer.outbox().filter((message) => message.to === email);

  it('sends a victim at most 3 sign-up and 3 reset emails an hour, answering 20 requesters of each the same', async () => {
    expect(MAILS_PER_RECIPIENT_PER_HOUR).toBe(3);
    const victim = await createVerifiedUser(t);
    const answers = [];
    for (let i = 0; i < 20; i++) {
      answers.push(
        await freshClient(t.app).post(`${API}/auth/signup`, {
          email: victim.email,
          authOrigin: 'Clearing',
        }),
      );
      answers.push(
        await freshClient(t.app).post(`${API}/auth/password/reset/request`, {
          email: victim.email,
          authOrigin: 'Clearing',
        }),
      );
    }
    expect(new Set(answers.map((answer) => `${answer.statusCode} ${answer.body}`))).toEqual(
      new Set(['200 {}']),
    );
    // Every email the address got this hour, the verification of its own sign-up included.
    const sent = mailsTo(victim.email);
    const resets = sent.filter((message) => message.links.some((l) => l.includes('reset')));
    expect(resets).toHaveLength(3);
    expect(sent.length - resets.length).toBe(3);
  });

  it('caps a new address’s verification emails too, and leaves every other address its own count', async () => {
    const target = uniqueEmail('bombed');
    for (let i = 0; i < 6; i++) {
      const answer = await freshClient(t.app).post(`${API}/auth/signup`, {
        email: target,
        authOrigin: 'Clearing',
      });
      expect(answer.statusCode).toBe(200);
    }
    expect(mailsTo(target)).toHaveLength(3);
    const bystander = uniqueEmail('bystander');
    await freshClient(t.app).post(`${API}/auth/signup`, {
      email: bystander,
      authOrigin: 'Clearing',
    });
    expect(mailsTo(bystander)).toHaveLength(1);
    // The counter holds no address, only its keyed digest.
    const keys = await t.pool.query<{ key: string }>(
      `select key from rate_limit_counters where key like 'mail-%'`,
    );
    expect(keys.rows.length).toBeGreaterThan(0);
    for (const { key } of keys.rows) expect(key).not.toContain('@');
  });
});
