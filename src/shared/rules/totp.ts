/** A 2FA code from an authenticator app (access §9): six digits, asked for by this message. */
export const TOTP_MAX_LENGTH = 6;
export const TOTP_REQUIRED_MESSAGE = 'Enter your 2FA code';
