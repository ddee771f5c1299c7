/**
 * The messages the sign-in page's info toast may show (access §2, §4; business §2.7). A redirect
 * hands over a key (`/clearing/signin?notice=logged-out`), never text: the page shows only the
 * portal's own wording, so a link cannot make the portal display an "official" notice of an
 * attacker's choosing (docs/decisions.md, Applicants and reviewers).
 */
export const SIGN_IN_NOTICES = {
  'signin-required': 'Please sign in to view that content.',
  unauthenticated: "You've been redirected due to being unauthenticated. Please sign in again.",
  'logged-out': 'Succesfully logged out.', // spelling as in the specification
  verified: 'Please sign in to continue registering.',
  'password-reset': 'Your password has been reset. Please sign in.',
  'invite-accepted': 'Invitation accepted. Please sign in to continue.',
} as const;

export type SignInNotice = keyof typeof SIGN_IN_NOTICES;

/** The query parameter carrying the key. */
export const SIGN_IN_NOTICE_PARAM = 'notice';

/** The text for a handed-over key; null for anything else (unknown keys, free text). */
export function signInNoticeText(key: string | null): string | null {
  if (!key || !Object.prototype.hasOwnProperty.call(SIGN_IN_NOTICES, key)) return null;
  return SIGN_IN_NOTICES[key as SignInNotice];
}
