/**
 * Issue 38 §4: the sign-in's second step takes one of the account's recovery codes in place of
 * the code, when the server says unused ones remain; a refused one is said on its field.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { browserLocation } from '../../src/web/api/client';
import { json, makeUser, mockApi, renderApp, sentBodies, currentUserHandler } from './renderApp';

const REFUSED = 'That recovery code is not right, or it was used already. Each code works once.';

describe('the sign-in’s recovery code', () => {
  beforeEach(() => {
    vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('offers a recovery code in place of the code, says a refused one on its field, and signs in with the next', async () => {
    const fetchMock = mockApi({
      'GET user': currentUserHandler(null),
      'POST auth/signin': (body) => {
        const sent = body as { recoveryCode?: string; totpCode?: string };
        if (!sent.recoveryCode && !sent.totpCode) {
          return json(200, { authStatus: 'TwoFactorRequired', methods: ['totp', 'recovery_code'] });
        }
        if (sent.recoveryCode === 'used1-code1') {
          return json(401, { errorMessage: REFUSED, errors: { recoveryCode: REFUSED } });
        }
        return json(200, { authStatus: 'AuthComplete', user: makeUser() });
      },
    });
    const { router } = renderApp('/clearing/signin');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Email/), 'avery@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    await screen.findByLabelText(/^2FA Code/);
    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    expect(screen.queryByLabelText(/^2FA Code/)).toBeNull();
    const field = screen.getByLabelText(/^Recovery code/);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(field).toHaveAccessibleDescription('Enter one of your recovery codes');

    await user.type(field, 'used1-code1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(REFUSED));
    expect(screen.queryByRole('alert')).toBeNull();

    await user.clear(field);
    await user.type(field, 'fresh-code2');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/clearing/home'));
    expect(sentBodies(fetchMock, 'POST auth/signin')).toEqual([
      { email: 'avery@example.com', password: 'Secret123' },
      { email: 'avery@example.com', password: 'Secret123', recoveryCode: 'used1-code1' },
      { email: 'avery@example.com', password: 'Secret123', recoveryCode: 'fresh-code2' },
    ]);
  });

  it('offers none when the server names no unused codes', async () => {
    mockApi({
      'GET user': currentUserHandler(null),
      'POST auth/signin': () => json(200, { authStatus: 'TwoFactorRequired', methods: ['totp'] }),
    });
    renderApp('/clearing/signin');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Email/), 'avery@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByLabelText(/^2FA Code/);
    expect(screen.queryByRole('button', { name: 'Use a recovery code instead' })).toBeNull();
  });
});
