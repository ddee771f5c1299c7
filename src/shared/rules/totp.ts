/** A 2FA code from an authenticator app (access §9): six digits, asked for by this message. */
export const TOTP_MAX_LENGTH = 6;
export const TOTP_REQUIRED_MESSAGE = 'Enter your 2FA code';

/**
 * A recovery code (issue 38 §4), typed in place of a 2FA code: 10 characters shown as
 * `xxxxx-xxxxx`; spaces and hyphens typed around them are allowed up to this length.
 */
export const RECOVERY_CODE_MAX_LENGTH = 32;
export const RECOVERY_CODE_REQUIRED_MESSAGE = 'Enter one of your recovery codes';
