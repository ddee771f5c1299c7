/**
 * The profile page's one confirmation dialog (issue 27 §2): the sign-in's own form (SignInForm)
 * with the account's email read-only, the password, then the second factor the change's server
 * asks for (a code or a passkey), sent together with the change.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../src/shared/api/account';
import { CONFIRM_IDENTITY_TITLE } from '../../../src/web/pages/profile/ConfirmIdentityDialog';
import { renderProfile } from './renderProfile';
import { json, sentBodies, type Handler } from '../renderApp';

// The browser's WebAuthn ceremony (jsdom has no authenticator): the assertion a passkey gives.
const startAuthentication = vi.hoisted(() => vi.fn());
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication }));

const EMAIL = 'avery@example.com';
const PASSWORD = 'Lantern-Quay-48';
const NEEDED =
  'Two-factor authentication is on for your account: confirm with a code from your authenticator app or with your passkey.';
const PROFILE: Profile = {
  email: EMAIL,
  firstName: 'Avery',
  lastName: 'Stone',
  totpEnabled: true,
  passkeys: [{ id: 'pk-1', name: 'Laptop', createdAt: '2026-11-01T10:00:00Z', lastUsedAt: null }],
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  startAuthentication.mockReset();
});

/** A change's server: the password alone gets 403 naming `methods`; with a factor, `done`. */
function askingSecondFactor(methods: string, done: Handler): Handler {
  return (body, init) => {
    const sent = body as { totpCode?: string; passkey?: unknown };
    if (!sent.totpCode && !sent.passkey) {
      return json(403, { errorMessage: NEEDED, errors: { secondFactor: methods } });
    }
    return done(body, init);
  };
}

async function openedDialog() {
  const dialog = await screen.findByRole('dialog', { name: CONFIRM_IDENTITY_TITLE });
  return within(dialog);
}

async function enterPassword(dialog: ReturnType<typeof within>, password = PASSWORD) {
  const user = userEvent.setup();
  const field = dialog.getByLabelText(/^Password/);
  await user.clear(field);
  await user.type(field, password);
  await user.click(dialog.getByRole('button', { name: 'Continue' }));
}

describe('the profile’s confirmation dialog', () => {
  it('asks the password in the sign-in’s form, then the code the change asks for, and sends both together', async () => {
    const user = userEvent.setup();
    const fetchMock = renderProfile(PROFILE, {
      'DELETE user/2fa': askingSecondFactor('totp passkey', () => json(200, { enabled: false })),
    });
    await user.click(await screen.findByRole('button', { name: 'Turn off authenticator app' }));
    const dialog = await openedDialog();
    expect(dialog.getByText(/To turn off the authenticator app, enter your password/)).toBeTruthy();
    // The sign-in form's fields: the account's email, read-only, and the password focused.
    expect(dialog.getByLabelText(/^Email/)).toHaveProperty('readOnly', true);
    expect(dialog.getByLabelText(/^Email/)).toHaveProperty('value', EMAIL);
    await waitFor(() => expect(document.activeElement).toBe(dialog.getByLabelText(/^Password/)));

    await enterPassword(dialog);
    const code = await dialog.findByLabelText(/^2FA Code/);
    expect(dialog.getByRole('button', { name: 'Use a passkey instead' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(code));
    await user.type(code, '123456');
    await user.click(dialog.getByRole('button', { name: 'Continue' }));

    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: CONFIRM_IDENTITY_TITLE })).toBeNull(),
    );
    expect(sentBodies(fetchMock, 'DELETE user/2fa')).toEqual([
      { password: PASSWORD },
      { password: PASSWORD, totpCode: '123456' },
    ]);
  });

  it('says a wrong password on the password field and a wrong code on the code field, keeping what was typed', async () => {
    const user = userEvent.setup();
    renderProfile(PROFILE, {
      'DELETE user/2fa': (body) => {
        const sent = body as { password: string; totpCode?: string };
        if (sent.password !== PASSWORD) {
          return json(400, {
            errorMessage: 'Password is wrong',
            errors: { password: 'Password is wrong' },
          });
        }
        if (!sent.totpCode) {
          return json(403, { errorMessage: NEEDED, errors: { secondFactor: 'totp' } });
        }
        const wrong = 'The two-factor code is not right. Please try again with a new code.';
        return json(400, { errorMessage: wrong, errors: { totpCode: wrong } });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Turn off authenticator app' }));
    const dialog = await openedDialog();
    await enterPassword(dialog, 'Not-My-Pass-1');
    await waitFor(() =>
      expect(dialog.getByLabelText(/^Password/)).toHaveAccessibleDescription('Password is wrong'),
    );
    expect(dialog.queryByRole('alert')).toBeNull();

    await enterPassword(dialog);
    const code = await dialog.findByLabelText(/^2FA Code/);
    // A passkey-less account: no passkey button.
    expect(dialog.queryByRole('button', { name: /passkey/ })).toBeNull();
    await user.type(code, '000000');
    await user.click(dialog.getByRole('button', { name: 'Continue' }));
    await waitFor(() =>
      expect(code).toHaveAccessibleDescription(
        'The two-factor code is not right. Please try again with a new code.',
      ),
    );
    expect(code).toHaveProperty('value', '000000');
    expect(dialog.getByLabelText(/^Password/)).toHaveProperty('value', PASSWORD);
  });

  it('a passkey answers the second step: a re-authentication challenge, its assertion sent with the password', async () => {
    const user = userEvent.setup();
    const assertion = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {} };
    startAuthentication.mockResolvedValue(assertion);
    const fetchMock = renderProfile(PROFILE, {
      'GET user/profile': () => json(200, { ...PROFILE, totpEnabled: false }),
      'POST user/reauth/passkey-options': () => json(200, { challenge: 'Y2hhbGxlbmdl' }),
      'DELETE user/passkeys/pk-1': askingSecondFactor('passkey', () => json(200, {})),
    });
    await user.click(await screen.findByRole('button', { name: 'Remove passkey Laptop' }));
    const dialog = await openedDialog();
    await enterPassword(dialog);
    // A passkey-only account: no code field, the passkey answers.
    await user.click(await dialog.findByRole('button', { name: 'Use your passkey' }));
    expect(dialog.queryByLabelText(/^2FA Code/)).toBeNull();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: CONFIRM_IDENTITY_TITLE })).toBeNull(),
    );
    expect(startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'Y2hhbGxlbmdl' },
    });
    expect(sentBodies(fetchMock, 'DELETE user/passkeys/pk-1')).toEqual([
      { password: PASSWORD },
      { password: PASSWORD, passkey: assertion },
    ]);
  });

  it('shows the lock’s message, saying when to try again, and stays open', async () => {
    const user = userEvent.setup();
    const locked =
      'Two-factor sign-in is locked after too many failed attempts. Please try again after 2026-11-28 15:42 UTC.';
    renderProfile(PROFILE, {
      'DELETE user/2fa': askingSecondFactor('totp', () => json(429, { errorMessage: locked })),
    });
    await user.click(await screen.findByRole('button', { name: 'Turn off authenticator app' }));
    const dialog = await openedDialog();
    await enterPassword(dialog);
    await user.type(await dialog.findByLabelText(/^2FA Code/), '123456');
    await user.click(dialog.getByRole('button', { name: 'Continue' }));
    expect((await dialog.findByRole('alert')).textContent).toContain(locked);
    expect(screen.getByRole('dialog', { name: CONFIRM_IDENTITY_TITLE })).toBeTruthy();
  });

  it('changes the password: the new one on the page, then the current one and the code in the dialog', async () => {
    const user = userEvent.setup();
    const fetchMock = renderProfile(PROFILE, {
      'POST user/password': askingSecondFactor('totp', () => json(200, { endedSessions: 2 })),
    });
    await user.type(await screen.findByLabelText(/^New password/), 'Harbour-Kite-93');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Harbour-Kite-93');
    // No current-password field of its own: the dialog asks it.
    expect(screen.queryByLabelText(/^Current password/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    const dialog = await openedDialog();
    expect(dialog.getByText(/To change your password, enter your password again/)).toBeTruthy();
    await enterPassword(dialog);
    await user.type(await dialog.findByLabelText(/^2FA Code/), '654321');
    await user.click(dialog.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByText('Your password has been changed. 2 other sessions were signed out.'),
    ).toBeTruthy();
    expect(sentBodies(fetchMock, 'POST user/password').at(-1)).toEqual({
      currentPassword: PASSWORD,
      newPassword: 'Harbour-Kite-93',
      endOtherSessions: true,
      totpCode: '654321',
    });
  });

  it('changes the email: the address on the page, its refusal said on its field, the dialog closed', async () => {
    const user = userEvent.setup();
    renderProfile(PROFILE, {
      'POST user/email': (body) =>
        (body as { newEmail: string }).newEmail === EMAIL
          ? json(400, {
              errorMessage: 'That is already your email.',
              errors: { newEmail: 'Already yours' },
            })
          : askingSecondFactor('totp', () => json(200, {}))(body, {}),
    });
    await user.click(await screen.findByRole('button', { name: 'Change email' }));
    const form = within(screen.getByRole('form', { name: 'Change email' }));
    expect(form.queryByLabelText(/password/i)).toBeNull();
    await user.type(form.getByLabelText(/^New email/), EMAIL);
    await user.click(form.getByRole('button', { name: 'Send confirmation link' }));
    await enterPassword(await openedDialog());
    await waitFor(() =>
      expect(form.getByLabelText(/^New email/)).toHaveAccessibleDescription(
        'That is already your email.',
      ),
    );
    // Closed (after its exit transition).
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: CONFIRM_IDENTITY_TITLE })).toBeNull(),
    );

    await user.clear(form.getByLabelText(/^New email/));
    await user.type(form.getByLabelText(/^New email/), 'avery.new@example.com');
    await user.click(form.getByRole('button', { name: 'Send confirmation link' }));
    const dialog = await openedDialog();
    await enterPassword(dialog);
    await user.type(await dialog.findByLabelText(/^2FA Code/), '111111');
    await user.click(dialog.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/We sent a link to avery.new@example.com/)).toBeTruthy();
  });
});
