import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { firm } from '../../shared/config/firm';
import {
  findPasskey,
  insertPasskey,
  listPasskeys,
  recordPasskeyUse,
  storeChallenge,
  takeChallenge,
} from '../db/passkeys';
import type { Queryable } from '../db/transaction';

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server: the phishing-resistant second factor NIST
 * SP 800-63B-4 asks an AAL2 service to offer. The relying party is the portal's public address
 * (PUBLIC_URL): its host name is the RP ID, its origin the only origin accepted.
 */
interface RelyingParty {
  rpID: string;
  origin: string;
}

export function relyingParty(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/** Options for the browser to create a passkey; the challenge waits in the database. */
export async function passkeyRegistrationOptions(
  db: Queryable,
  rp: RelyingParty,
  user: { id: string; email: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await listPasskeys(db, user.id);
  const options = await generateRegistrationOptions({
    rpName: firm.displayName,
    rpID: rp.rpID,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    // The same authenticator twice would be no second key: browsers refuse it.
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credential_id,
      transports: passkey.transports,
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await storeChallenge(db, user.id, 'register', options.challenge);
  return options;
}

/** Checks the browser's new passkey against the waiting challenge and stores it; its id or null. */
export async function registerPasskey(
  db: Queryable,
  rp: RelyingParty,
  userId: string,
  response: RegistrationResponseJSON,
  name: string,
): Promise<string | null> {
  const waiting = await takeChallenge(db, 'register', { userId });
  if (!waiting) return null;
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: waiting.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) return null;
  const { credential } = verification.registrationInfo;
  return insertPasskey(db, {
    userId,
    credentialId: credential.id,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? [],
    name,
  });
}

/**
 * Options for answering with one of the user's passkeys, and the handle of the waiting challenge;
 * null when the user has none.
 */
async function assertionOptions(
  db: Queryable,
  rp: RelyingParty,
  userId: string,
  purpose: 'signin' | 'reauth',
): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; handle: string } | null> {
  const passkeys = await listPasskeys(db, userId);
  if (passkeys.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    allowCredentials: passkeys.map((passkey) => ({
      id: passkey.credential_id,
      transports: passkey.transports,
    })),
    userVerification: 'preferred',
  });
  const handle = await storeChallenge(db, userId, purpose, options.challenge);
  return { options, handle };
}

/** For the sign-in's second step: the handle is kept by the browser in a short-lived cookie. */
export const passkeySigninOptions = (db: Queryable, rp: RelyingParty, userId: string) =>
  assertionOptions(db, rp, userId, 'signin');

/**
 * For a re-authentication on the profile page (issue 27 §2): the challenge waits for the signed-in
 * user, one at a time, so no handle travels.
 */
export async function passkeyReauthOptions(
  db: Queryable,
  rp: RelyingParty,
  userId: string,
): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  return (await assertionOptions(db, rp, userId, 'reauth'))?.options ?? null;
}

/**
 * Whether one of the user's passkeys answered the challenge taken for them; a right answer
 * records the passkey's use. Each challenge serves once: the caller has already taken it.
 */
export async function verifyPasskeyAnswer(
  db: Queryable,
  rp: RelyingParty,
  waiting: { userId: string; challenge: string },
  response: AuthenticationResponseJSON,
): Promise<boolean> {
  const passkey = await findPasskey(db, waiting.userId, response.id);
  if (!passkey) return false;
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: waiting.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: {
      id: passkey.credential_id,
      publicKey: new Uint8Array(passkey.public_key),
      counter: Number(passkey.counter),
      transports: passkey.transports,
    },
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) return false;
  await recordPasskeyUse(db, passkey.id, verification.authenticationInfo.newCounter);
  return true;
}
