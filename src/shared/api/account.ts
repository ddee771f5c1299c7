/** Request and response shapes of the profile page's calls (DECISIONS "Security"). */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** GET user/profile: who the user is and how they sign in. */
export interface Profile {
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** An authenticator app (TOTP) is on. */
  totpEnabled: boolean;
  passkeys: PasskeySummary[];
}

/** One live session, as GET user/sessions lists it. */
export interface SessionSummary {
  id: string;
  /** This browser's own session. */
  current: boolean;
  /** Browser and system, from the user agent ("Chrome 131 on Linux"). */
  device: string;
  /**
   * Where it signed in from, as honestly as the portal knows: this computer, the local network,
   * an approximate place from offline IP data with the address, or the address alone.
   */
  place: string;
  signedInAt: string;
  lastSeenAt: string;
}

export interface SessionList {
  sessions: SessionSummary[];
  /** The credit the IP data's licence asks for beside its places (null: none needed or none used). */
  placesAttribution: { text: string; url: string } | null;
}

/**
 * A current second factor, sent beside the password with a sensitive change when the account has
 * one (issue 27 §2): a code from the authenticator app, or a passkey's answer to the challenge of
 * POST user/reauth/passkey-options. Without it such a change answers 403 with
 * `errors.secondFactor` naming the account's factors (`totp`, `passkey`, or both).
 */
interface SecondFactorProof {
  totpCode?: string;
  passkey?: AuthenticationResponseJSON;
}

/** POST user/password: the current password, the new one, and whether to end other sessions. */
export interface ChangePasswordBody extends SecondFactorProof {
  currentPassword: string;
  newPassword: string;
  endOtherSessions: boolean;
}

/** How many other sessions a change ended. */
export interface SessionsEnded {
  endedSessions: number;
}

/** Calls that change how the user signs in ask for the password again (ASVS 7.5.1). */
export interface PasswordConfirmation {
  password: string;
}

/** The password again and, when the account has one, a current second factor (issue 27 §2). */
export interface IdentityConfirmation extends PasswordConfirmation, SecondFactorProof {}

export interface PasskeyRegistrationBody {
  name: string;
  response: RegistrationResponseJSON;
}

export type PasskeyCreationOptions = PublicKeyCredentialCreationOptionsJSON;

/** POST auth/signin/passkey: the answer of the passkey the sign-in's second step asked for. */
export interface PasskeySigninBody {
  response: AuthenticationResponseJSON;
}

/** POST user/email: a new address, confirmed from a link mailed there. */
export interface ChangeEmailBody extends IdentityConfirmation {
  newEmail: string;
}

export interface ConfirmEmailBody {
  token: string;
}
