/**
 * Issue 38 §4: the profile's recovery codes. Turning the authenticator app on shows the ten codes
 * its answer carries, once; the section says how many are left and gets a new set after the
 * password and a second factor, which may itself be one of the recovery codes.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../src/shared/api/account';
import { CONFIRM_IDENTITY_TITLE } from '../../../src/web/pages/profile/ConfirmIdentityDialog';
import { renderProfile } from './renderProfile';
import { json, sentBodies } from '../renderApp';

// QR codes are drawn from the otpauth URL; jsdom does not need a real one.
vi.mock('qrcode', () => ({ default: { toString: async () => '<svg/>' } }));

const EMAIL = 'avery@example.com';
const PASSWORD = 'Lantern-Quay-48';
const CODES = Array.from({ length: 10 }, (_, n) => `abcd${n}-ef${n}gh`);
const NEW_CODES = Array.from({ length: 10 }, (_, n) => `zyxw${n}-vt${n}sr`);

function profileWith(overrides: Partial<Profile>): Profile {
  return {
    email: EMAIL,
    firstName: 'Avery',
    lastName: 'Stone',
    totpEnabled: true,
    passkeys: [],
    recoveryCodesLeft: 10,
    ...overrides,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function confirmWithPassword() {
  const user = userEvent.setup();
  const dialog = within(await screen.findByRole('dialog', { name: CONFIRM_IDENTITY_TITLE }));
  await user.type(dialog.getByLabelText(/^Password/), PASSWORD);
  await user.click(dialog.getByRole('button', { name: 'Continue' }));
  return dialog;
}

describe('the profile’s recovery codes (issue 38 §4)', () => {
  it('shows the ten codes once as the app is turned on, then only how many are left', async () => {
    const user = userEvent.setup();
    let profile = profileWith({ totpEnabled: false, recoveryCodesLeft: 0 });
    const fetchMock = renderProfile(() => profile, {
      'POST user/2fa': () => json(200, { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://x' }),
      'PATCH user/2fa': () => {
        profile = profileWith({ recoveryCodesLeft: 10 });
        return json(200, { enabled: true, recoveryCodes: CODES });
      },
    });
    // No second factor yet: no recovery codes to speak of.
    await screen.findByRole('button', { name: 'Set up authenticator app' });
    expect(screen.queryByRole('heading', { name: 'Recovery codes' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Set up authenticator app' }));
    await confirmWithPassword();
    await user.type(await screen.findByLabelText(/^Code from the app/), '123456');
    // The confirmation dialog closes with a transition: the page is reachable once it is gone.
    await user.click(await screen.findByRole('button', { name: 'Turn On' }, { timeout: 5_000 }));

    const shown = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(shown)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(screen.getByText(/They are shown only now/)).toBeTruthy();
    expect(await screen.findByTestId('recovery-codes-left')).toHaveTextContent(
      '10 of 10 recovery codes left.',
    );
    expect(sentBodies(fetchMock, 'PATCH user/2fa')).toEqual([{ totpCode: '123456' }]);

    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(screen.queryByText(CODES[0]!)).toBeNull();
  });

  it('gets a new set after the password and one of the old recovery codes, and shows it', async () => {
    const user = userEvent.setup();
    let profile = profileWith({ recoveryCodesLeft: 2 });
    const fetchMock = renderProfile(() => profile, {
      'POST user/2fa/recovery-codes': (body) => {
        const sent = body as { recoveryCode?: string; totpCode?: string };
        if (!sent.recoveryCode && !sent.totpCode) {
          return json(403, {
            errorMessage: 'Two-factor authentication is on for your account.',
            errors: { secondFactor: 'totp recovery_code' },
          });
        }
        profile = profileWith({ recoveryCodesLeft: 10 });
        return json(200, { recoveryCodes: NEW_CODES });
      },
    });
    expect(await screen.findByTestId('recovery-codes-left')).toHaveTextContent(
      '2 of 10 recovery codes left.',
    );
    expect(screen.getByText(/Only a few are left/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Get new recovery codes' }));
    const dialog = await confirmWithPassword();
    expect(dialog.getByText(/To get new recovery codes/)).toBeTruthy();
    await user.click(await dialog.findByRole('button', { name: 'Use a recovery code instead' }));
    const field = await dialog.findByLabelText(/^Recovery code/);
    await waitFor(() => expect(document.activeElement).toBe(field));
    await user.type(field, CODES[4]!);
    await user.click(dialog.getByRole('button', { name: 'Continue' }));

    const shown = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(shown)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(NEW_CODES);
    expect(sentBodies(fetchMock, 'POST user/2fa/recovery-codes')).toEqual([
      { password: PASSWORD },
      { password: PASSWORD, recoveryCode: CODES[4] },
    ]);
    await waitFor(() =>
      expect(screen.getByTestId('recovery-codes-left')).toHaveTextContent(
        '10 of 10 recovery codes left.',
      ),
    );
  });

  it('says plainly when none are left', async () => {
    renderProfile(() => profileWith({ recoveryCodesLeft: 0 }), {});
    expect(await screen.findByTestId('recovery-codes-left')).toHaveTextContent(
      'You have no recovery codes left.',
    );
    expect(screen.getByText(/Get a new set now/)).toBeTruthy();
  });
});
