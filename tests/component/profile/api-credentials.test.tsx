/**
 * The Profile page's API credentials (issue 40 §4): an Administrator makes one after confirming
 * who they are, sees its secret once, and is asked before revoking one; anyone else sees nothing.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../src/shared/api/account';
import type { ApiCredential } from '../../../src/shared/api/apiCredentials';
import { CONFIRM_IDENTITY_TITLE } from '../../../src/web/pages/profile/ConfirmIdentityDialog';
import { SECRET_SHOWN_ONCE } from '../../../src/web/pages/profile/ApiCredentialsSection';
import { renderProfile } from './renderProfile';
import { json, sentBodies } from '../renderApp';

const EMAIL = 'avery@example.com';
const PASSWORD = 'Lantern-Quay-48';
const SECRET = 'ncpk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const PROFILE: Profile = {
  email: EMAIL,
  firstName: 'Avery',
  lastName: 'Stone',
  totpEnabled: false,
  passkeys: [],
};
const EXISTING: ApiCredential = {
  id: 'c1',
  name: 'Reporting',
  scopes: ['statements:read'],
  secretStart: 'ncpk_AbCdEf',
  createdAt: '2026-11-20T09:00:00Z',
  createdBy: EMAIL,
  lastUsedAt: null,
  revokedAt: null,
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('API credentials on the Profile page', () => {
  it(
    'creates one after the password, shows its secret once, then forgets it',
    { timeout: 60_000 },
    async () => {
      const user = userEvent.setup();
      let credentials: ApiCredential[] = [];
      const created: ApiCredential = { ...EXISTING, id: 'c2', name: 'Back office' };
      const fetchMock = renderProfile(PROFILE, {
        'GET user/api-credentials': () => json(200, { credentials }),
        'POST user/api-credentials': () => {
          credentials = [created];
          return json(201, { credential: created, secret: SECRET });
        },
      });
      const section = within(
        (await screen.findByRole('heading', { name: 'API credentials' })).closest('section')!,
      );
      const create = section.getByRole('button', { name: 'Create credential' });
      expect(create).toBeDisabled();
      // Pasted, not typed key by key: what is tested is the flow, not the text field.
      await user.click(section.getByLabelText('Name of the new credential'));
      await user.paste('Back office');
      await user.click(section.getByLabelText(/Read the clearing statement/));
      await user.click(create);

      const dialog = await screen.findByRole('dialog', { name: CONFIRM_IDENTITY_TITLE });
      await user.click(within(dialog).getByLabelText(/password/i));
      await user.paste(PASSWORD);
      await user.click(within(dialog).getByRole('button', { name: 'Continue' }));

      expect(await section.findByDisplayValue(SECRET)).toBeInTheDocument();
      expect(section.getByText(new RegExp(SECRET_SHOWN_ONCE.slice(0, 40)))).toBeInTheDocument();
      expect(sentBodies(fetchMock, 'POST user/api-credentials')).toEqual([
        { name: 'Back office', scopes: ['statements:read'], password: PASSWORD },
      ]);
      expect(await section.findByRole('cell', { name: /Back office/ })).toBeInTheDocument();

      await user.click(section.getByRole('button', { name: 'I have kept it' }));
      expect(section.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
      expect(document.body.textContent).not.toContain(SECRET);
    },
  );

  it('asks before revoking, and revokes only when confirmed', async () => {
    const user = userEvent.setup();
    let credentials: ApiCredential[] = [EXISTING];
    const fetchMock = renderProfile(PROFILE, {
      'GET user/api-credentials': () => json(200, { credentials }),
      'DELETE user/api-credentials/c1': () => {
        credentials = [{ ...EXISTING, revokedAt: '2026-11-25T10:00:00Z' }];
        return json(200, credentials[0]);
      },
    });
    const revoke = await screen.findByRole('button', { name: 'Revoke Reporting' });
    await user.click(revoke);
    const ask = await screen.findByRole('dialog', { name: 'Revoke Reporting?' });
    expect(within(ask).getByText(/stops working at once/)).toBeInTheDocument();
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sentBodies(fetchMock, 'DELETE user/api-credentials/c1')).toHaveLength(0);

    await user.click(revoke);
    const again = await screen.findByRole('dialog', { name: 'Revoke Reporting?' });
    await user.click(within(again).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText(/^Revoked /)).toBeInTheDocument();
    expect(sentBodies(fetchMock, 'DELETE user/api-credentials/c1')).toHaveLength(1);
  });

  it('shows nothing of it to someone who is not an Administrator', async () => {
    renderProfile(PROFILE, {
      'GET user/api-credentials': () =>
        json(403, { errorMessage: 'Only an Administrator of your organisation can do this.' }),
    });
    expect(await screen.findByRole('heading', { name: 'Active sessions' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'API credentials' })).not.toBeInTheDocument(),
    );
    expect(screen.queryByText(/Only an Administrator/)).not.toBeInTheDocument();
  });
});
