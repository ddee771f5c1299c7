import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/shared/api/auth';
import type { RegistrationOverview } from '../../src/shared/api/registration';
import { registeredCustomer, signedInStaff } from './adminHelpers';
import { createTestApp, type TestApp } from './testApp';

const A = '/exchange/api/admin';

/** Everything mailed to `to`, oldest first. */
const mailTo = (t: TestApp, to: string) => t.mailer.outbox().filter((m) => m.to === to);

/** No email may carry what was submitted: SSN, date of birth, document names. */
function expectNoPii(text: string, answers: Record<string, unknown>) {
  for (const key of ['socialSecurityNumber', 'dateOfBirth']) {
    const value = String(answers[key]);
    expect(value.length).toBeGreaterThan(4);
    expect(text).not.toContain(value);
  }
  for (const file of ['front.png', 'back.png', 'w2.pdf']) expect(text).not.toContain(file);
}

describe('the applicant can trust the status (docs/decisions.md, Applicants and reviewers)', () => {
  let t: TestApp;
  let staff: Awaited<ReturnType<typeof signedInStaff>>;
  beforeAll(async () => {
    t = await createTestApp();
    staff = await signedInStaff(t);
  });
  afterAll(async () => t.close());

  const userOf = async (customer: Awaited<ReturnType<typeof registeredCustomer>>) =>
    (await customer.client.get('/exchange/api/web/user')).json() as User;

  it('emails the applicant on receipt; the user shows the status submitted', async () => {
    const customer = await registeredCustomer(t);
    const mails = mailTo(t, customer.email);
    const receipt = mails.find((m) => /received/i.test(m.subject));
    expect(receipt?.text).toContain('your application has been received');
    expectNoPii(receipt!.subject + receipt!.text, customer.answers);
    expect((await userOf(customer)).review).toEqual({ status: 'submitted', reason: null });
    // One word for the moment (issue 40 §2): the registration, its history and the staff list
    // say what the applicant's review says.
    const { registration } = (
      await customer.client.get('/exchange/api/web/registration')
    ).json() as RegistrationOverview;
    expect(registration?.status).toBe('submitted');
    expect(registration?.history.map((event) => event.status)).toEqual(['submitted']);
    const awaiting = await staff.client.get(`${A}/onboarding/organizations?status=submitted`);
    expect(awaiting.json().data).toContainEqual(
      expect.objectContaining({ registrationId: customer.registrationId, status: 'submitted' }),
    );
    expect(
      (await staff.client.get(`${A}/onboarding/organizations?status=pending`)).statusCode,
    ).toBe(400);
  });

  it('requests changes with a note: status, note on the user, email; only once, note required', async () => {
    const customer = await registeredCustomer(t);
    const noNote = await staff.client.post(`${A}/onboarding/kyc-changes-request`, {
      registrationId: customer.registrationId,
      note: '  ',
    });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().errorMessage).toBe('Please say what the applicant should change.');

    const note = 'The photo of your ID is blurred. Please upload a sharper photo.';
    const response = await staff.client.post(`${A}/onboarding/kyc-changes-request`, {
      registrationId: customer.registrationId,
      note,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'changes_requested' });
    expect((await userOf(customer)).review).toEqual({ status: 'changes_requested', reason: note });
    const mail = mailTo(t, customer.email).at(-1)!;
    expect(mail.subject).toMatch(/needs changes/);
    // The email says changes were requested and links home; the note (which may quote an
    // answer) is read on the home page only.
    expect(mail.text).not.toContain(note);
    expect(mail.text).toContain('/clearing/home');
    expectNoPii(mail.subject + mail.text, customer.answers);

    const again = await staff.client.post(`${A}/onboarding/kyc-changes-request`, {
      registrationId: customer.registrationId,
      note,
    });
    expect(again.statusCode).toBe(409);
    const list = await staff.client.get(`${A}/onboarding/organizations?status=changes_requested`);
    expect(list.json().data.map((r: { registrationId: string }) => r.registrationId)).toContain(
      customer.registrationId,
    );
    // The request is this version's decision: approval waits for the applicant's changes (a
    // rejection may still close it: concurrent-decisions.test.ts).
    const decided = await staff.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: customer.registrationId,
      approved: true,
    });
    expect(decided.statusCode).toBe(409);
    expect(decided.json().errorMessage).toBe(
      'Changes were already requested; this registration waits for the applicant.',
    );
  });

  it('rejects with the reason: shown to the applicant and emailed with the support contact', async () => {
    const customer = await registeredCustomer(t);
    const reason = 'We cannot verify your identity from the documents provided.';
    const response = await staff.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: customer.registrationId,
      approved: false,
      reason,
    });
    expect(response.statusCode).toBe(200);
    const user = await userOf(customer);
    expect(user.review).toEqual({ status: 'rejected', reason });
    expect(user.details?.approved).toBe(false);
    const mail = mailTo(t, customer.email).at(-1)!;
    expect(mail.subject).toMatch(/not accepted/);
    expect(mail.text).toContain(reason);
    expect(mail.text).toMatch(/contact us at \S+@\S+/);
    expectNoPii(mail.subject + mail.text, customer.answers);
  });

  it('approves: status approved, no reason shown, the applicant is emailed', async () => {
    const customer = await registeredCustomer(t);
    const before = mailTo(t, customer.email).length;
    const response = await staff.client.post(`${A}/onboarding/kyc-approval`, {
      registrationId: customer.registrationId,
      approved: true,
      reason: 'internal note',
    });
    expect(response.statusCode).toBe(200);
    const user = await userOf(customer);
    expect(user.review).toEqual({ status: 'approved', reason: null });
    expect(user.details?.approved).toBe(true);
    const mails = mailTo(t, customer.email);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)!.subject).toMatch(/approved/);
    expect(mails.at(-1)!.text).not.toContain('internal note');
    expectNoPii(mails.at(-1)!.subject + mails.at(-1)!.text, customer.answers);
  });

  it('keeps the decision when the email cannot be sent', async () => {
    const customer = await registeredCustomer(t);
    const send = t.mailer.send;
    t.mailer.send = () => Promise.reject(new Error('SMTP down'));
    try {
      const response = await staff.client.post(`${A}/onboarding/kyc-approval`, {
        registrationId: customer.registrationId,
        approved: true,
      });
      expect(response.statusCode).toBe(200);
    } finally {
      t.mailer.send = send;
    }
    expect((await userOf(customer)).review?.status).toBe('approved');
  });
});
