/** Password rules of the new-password pages (spec access §5, §9). */

export type PasswordStrength = 'weak' | 'medium' | 'strong';

const classes = (password: string) => ({
  lower: /[a-z]/.test(password),
  upper: /[A-Z]/.test(password),
  digit: /\d/.test(password),
  special: /[!@#$%^&*]/.test(password),
});

/** The weak rule: at least 6 characters and at least two of lowercase, uppercase, digit. */
export function passesWeakRule(password: string): boolean {
  const { lower, upper, digit } = classes(password);
  return password.length >= 6 && [lower, upper, digit].filter(Boolean).length >= 2;
}

/** Strong: 8+ characters with lowercase, uppercase, digit and one of !@#$%^&*. */
export function passwordStrength(password: string): PasswordStrength {
  const { lower, upper, digit, special } = classes(password);
  if (password.length >= 8 && lower && upper && digit && special) return 'strong';
  return passesWeakRule(password) ? 'medium' : 'weak';
}

/** The new-password messages, exactly as the specification words them. */
export const PASSWORD_MESSAGES = {
  required: 'Enter password',
  tooWeak: 'Password is too weak',
  confirmRequired: 'Confirm password',
  mismatch: 'Passwords must match',
  wrong: 'Password is wrong',
  signinRequired: 'Please enter a password',
} as const;

/** The message for a new password, or null when acceptable. */
export function newPasswordError(password: string): string | null {
  if (!password) return PASSWORD_MESSAGES.required;
  if (!passesWeakRule(password)) return PASSWORD_MESSAGES.tooWeak;
  return null;
}

export function confirmPasswordError(password: string, confirm: string): string | null {
  if (!confirm) return PASSWORD_MESSAGES.confirmRequired;
  if (confirm !== password) return PASSWORD_MESSAGES.mismatch;
  return null;
}
