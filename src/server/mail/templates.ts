import { firm } from '../../shared/config/firm';
import type { MailMessage } from './mailer';

type Message = Omit<MailMessage, 'links'>;

const signature = `\n\n${firm.displayName}\n${firm.supportEmail} · ${firm.supportPhone}\n`;

/** The emailed links, built from the public base URL (spec access §2 routes). */
export const links = {
  verifyEmail: (publicUrl: string, email: string, token: string) =>
    `${publicUrl}/clearing/user/verify-email?email=${encodeURIComponent(email)}&access_token=${encodeURIComponent(token)}`,
  resetPassword: (publicUrl: string, userId: string, token: string) =>
    `${publicUrl}/clearing/user/reset-password?access_token=${encodeURIComponent(token)}&user_id=${encodeURIComponent(userId)}`,
  invite: (publicUrl: string, organizationId: string, email: string, token: string) =>
    `${publicUrl}/clearing/user/accept-invite?access_token=${encodeURIComponent(token)}&organization_id=${encodeURIComponent(organizationId)}&email=${encodeURIComponent(email)}`,
  /** The profile page confirms a new email from the link mailed to it. */
  confirmEmail: (publicUrl: string, token: string) =>
    `${publicUrl}/exchange/dashboard/profile?access_token=${encodeURIComponent(token)}`,
  signIn: (publicUrl: string) => `${publicUrl}/clearing/signin`,
  profile: (publicUrl: string) => `${publicUrl}/exchange/dashboard/profile`,
  home: (publicUrl: string) => `${publicUrl}/clearing/home`,
};

export function verifyEmailMessage(to: string, link: string): Message {
  return {
    to,
    subject: `Verify your email for ${firm.displayName}`,
    text:
      `Welcome to ${firm.displayName}.\n\nOpen this link to verify your email and set your password ` +
      `(it works once, for 24 hours):\n\n${link}\n\nIf you did not sign up, ignore this email.` +
      signature,
  };
}

/** Sent when someone signs up with an address that already has an account. */
export function accountExistsMessage(to: string, signInLink: string): Message {
  return {
    to,
    subject: `You already have a ${firm.displayName} account`,
    text:
      `Someone (probably you) tried to sign up with this email, but it already has an account.\n\n` +
      `Sign in here: ${signInLink}\n\nForgot your password? Choose "Forgot Password" on the ` +
      `sign-in page to get a reset link.\n\nIf this was not you, no action is needed.` +
      signature,
  };
}

export function resetPasswordMessage(to: string, link: string): Message {
  return {
    to,
    subject: `Reset your ${firm.displayName} password`,
    text:
      `Open this link to choose a new password (it works once, for 1 hour):\n\n${link}\n\n` +
      `If you did not ask for a reset, ignore this email; your password stays as it is.` +
      signature,
  };
}

/**
 * The subject is fixed text: the organisation's name is chosen by a customer, and a subject line
 * is what a spammer would want to write (the name appears, quoted, in the body only).
 */
export function inviteMessage(to: string, organizationName: string, link: string): Message {
  return {
    to,
    subject: `Invitation to join an organisation on ${firm.displayName}`,
    text:
      `You have been invited to join the organisation "${organizationName}" on ${firm.displayName}.\n\n` +
      `Open this link to accept (it works once, for 7 days):\n\n${link}` +
      signature,
  };
}

/**
 * To the owner of an account an Administrator invited (issue 39 §5): the inviter is answered as for
 * a new address, so an invitation tells nobody which addresses hold accounts; the owner learns of
 * it here, with no link, since an account joins another organisation only through support.
 */
export function invitedExistingAccountMessage(to: string, organizationName: string): Message {
  return {
    to,
    subject: `Invitation to join an organisation on ${firm.displayName}`,
    text:
      `You have been invited to join the organisation "${organizationName}" on ${firm.displayName}. ` +
      `This email address already has an account with us, so the invitation cannot be accepted ` +
      `with a link. If you want to join that organisation, contact our support; if you do not ` +
      `know it, you can ignore this email.` +
      signature,
  };
}

/*
 * The applicant's registration emails (docs/decisions.md, Applicants and reviewers). They name the
 * applicant and the decision and nothing of what was submitted: no SSN, date of birth or document.
 */

const greeting = (firstName: string | null) => (firstName ? `Dear ${firstName},` : 'Hello,');

export function registrationReceivedMessage(
  to: string,
  firstName: string | null,
  homeLink: string,
): Message {
  return {
    to,
    subject: `We received your ${firm.displayName} application`,
    text:
      `${greeting(firstName)}\n\nThank you: your application has been received. Our team reviews ` +
      `it and we will email you once it has been reviewed.\n\nYou can check its status at any ` +
      `time on your home page: ${homeLink}` +
      signature,
  };
}

/**
 * Changes requested: says so, names the questions to change by their prompts (never an answer)
 * and links home, where the reviewer's notes wait. The notes stay out of the email: a note may
 * quote an answer (a passport number, a name).
 */
export function changesRequestedMessage(
  to: string,
  firstName: string | null,
  homeLink: string,
  prompts: readonly string[] = [],
): Message {
  const questions =
    prompts.length > 0
      ? `The questions to change:\n${prompts.map((prompt) => `- ${prompt}`).join('\n')}\n\n`
      : '';
  return {
    to,
    subject: `Your ${firm.displayName} application needs changes`,
    text:
      `${greeting(firstName)}\n\nWe reviewed your application and need some changes before we ` +
      `can decide on it.\n\n${questions}` +
      `The reviewer's notes are waiting for you on the portal. Sign in to read them and make the ` +
      `changes: ${homeLink}\n\nQuestions? ` +
      `Contact us at ${firm.supportEmail} or ${firm.supportPhone}.` +
      signature,
  };
}

export function registrationApprovedMessage(
  to: string,
  firstName: string | null,
  homeLink: string,
): Message {
  return {
    to,
    subject: `Your ${firm.displayName} application has been approved`,
    text:
      `${greeting(firstName)}\n\nGood news: your application has been approved. Your clearing ` +
      `statement appears on your home page once it is available: ${homeLink}` +
      signature,
  };
}

export function registrationRejectedMessage(
  to: string,
  firstName: string | null,
  reason: string,
): Message {
  return {
    to,
    subject: `Your ${firm.displayName} application was not accepted`,
    text:
      `${greeting(firstName)}\n\nWe are sorry: your application was not accepted.\n\n` +
      `Reason: ${reason}\n\nIf you have questions, contact us at ${firm.supportEmail} or ` +
      `${firm.supportPhone}.` +
      signature,
  };
}

/** To the new address: the link that makes it the account's email. */
export function confirmEmailMessage(to: string, link: string): Message {
  return {
    to,
    subject: `Confirm your new email for ${firm.displayName}`,
    text:
      `Open this link to make this address your ${firm.displayName} sign-in email (it works once, for 1 hour):\n\n${link}\n\n` +
      `If you did not ask for this, ignore this email; nothing changes.` +
      signature,
  };
}

/** To a new address that already has an account: nothing changes, and no account is named. */
export function emailInUseMessage(to: string): Message {
  return {
    to,
    subject: `This email already has a ${firm.displayName} account`,
    text:
      `Someone asked to use this address as the email of another ${firm.displayName} account. ` +
      `It already has an account of its own, so nothing changes. If it was you, sign in with this ` +
      `address instead, or contact support.` +
      signature,
  };
}

/** To the old address: a change of sign-in email was asked for, or made. */
export function emailChangeNoticeMessage(to: string, done: boolean): Message {
  return {
    to,
    subject: done
      ? `Your ${firm.displayName} sign-in email has changed`
      : `A change of your ${firm.displayName} sign-in email was requested`,
    text:
      (done
        ? // This address no longer signs in, so only support can take the account back.
          `Your account's sign-in email is no longer this address. If this was not you, ` +
          `contact support at once.`
        : // A reset from this address cancels the pending change (issue 39 §2).
          `A change of your account's sign-in email was requested after your password was given. ` +
          `It takes effect only when the new address confirms it. If this was not you, reset ` +
          `your password at once: that cancels the change. Then contact support.`) + signature,
  };
}

/**
 * To the account's owner, once, when failed second-factor attempts lock the second factor (issue
 * 27 §1). The password was right each time, so it says to change it; it names no code, secret or
 * address tried.
 */
export function secondFactorLockedMessage(to: string, until: string, signInLink: string): Message {
  return {
    to,
    subject: `Two-factor sign-in to your ${firm.displayName} account is locked for now`,
    text:
      `Someone entered your password correctly and then failed the second step (the code from ` +
      `your authenticator app, or your passkey) too many times in a row. To protect your ` +
      `account, the second step is locked until ${until}.\n\n` +
      `If this was you, wait until then and sign in as usual: ${signInLink}\n\n` +
      `If it was not you, someone knows your password. Change it now (Profile, or "Forgot ` +
      `Password" on the sign-in page) and contact support.` +
      signature,
  };
}

/**
 * To the account's owner, once, when wrong passwords lock sign-in from new browsers (issue 39
 * §4). Says that the browsers they signed in with before still sign in, and that a reset ends the
 * lock; it names no password or address tried.
 */
export function passwordLockedMessage(to: string, until: string, signInLink: string): Message {
  return {
    to,
    subject: `Sign-in to your ${firm.displayName} account is locked for new browsers`,
    text:
      `Someone tried to sign in to your account with a wrong password too many times in a row. ` +
      `To protect your account, sign-in from a browser that has not signed in to it before is ` +
      `locked until ${until}. The browsers you signed in with before still sign in as usual: ` +
      `${signInLink}\n\n` +
      `To end the lock now, choose "Forgot Password" on the sign-in page and set a new password. ` +
      `If it was not you, none of these attempts signed in. If your password is used elsewhere ` +
      `too, change it here and there.` +
      signature,
  };
}

/**
 * To the account's owner each time a recovery code answers a second step (issue 38 §4): says how
 * many remain and where to get a new set, and what to do if it was not them. It names no code.
 */
export function recoveryCodeUsedMessage(
  to: string,
  remaining: number,
  profileLink: string,
): Message {
  const left =
    remaining === 0
      ? 'That was your last recovery code: none remain.'
      : `${remaining} unused recovery ${remaining === 1 ? 'code remains' : 'codes remain'}.`;
  return {
    to,
    subject: `A recovery code was used for your ${firm.displayName} account`,
    text:
      `Someone signed in to your account, or confirmed a change to it, with your password and one ` +
      `of your recovery codes. That code will not work again. ${left}\n\n` +
      `You can get a new set of codes on your Profile page (the old ones then stop working): ` +
      `${profileLink}\n\n` +
      `If this was not you, someone has your password and your codes. Change your password now ` +
      `(Profile, or "Forgot Password" on the sign-in page), get new codes, and contact support.` +
      signature,
  };
}
