import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { currentUserQueryKey } from '../../src/web/api/get-current-user';
import { ACCOUNT_TYPE_STORAGE_KEY } from '../../src/web/pages/registration/RegistrationChoicePage';
import { json, makeUser, mockApi, renderApp, sentBodies } from './renderApp';

describe('LogoutPage', () => {
  // The toast loads on demand; load it once up front so timings stay short.
  beforeAll(async () => {
    await import('../../src/web/pages/auth/InfoToast');
  });

  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it.each([
    ['succeeds', () => json(204)],
    ['fails', () => json(500, { errorMessage: 'boom' })],
  ])(
    'when sign-out %s: clears drafts and cache, then replaces to sign-in with the message',
    async (_label, signout) => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      localStorage.setItem('clearing.draft.individual', '{"firstName":"A"}');
      localStorage.setItem('clearing.draft.business', '{}');
      localStorage.setItem(ACCOUNT_TYPE_STORAGE_KEY, 'business');
      let signedIn = true;
      const fetchMock = mockApi({
        'GET user': () => (signedIn ? json(200, makeUser()) : json(401, { errorMessage: 'no' })),
        'POST auth/signout': () => {
          signedIn = false;
          return signout();
        },
      });
      const { router, queryClient } = renderApp('/clearing/logout');
      queryClient.setQueryData(['statement', 'org-1'], { organizationName: 'x' });

      await waitFor(() => expect(router.state.location.pathname).toBe('/clearing/signin'));
      expect(router.state.historyAction).toBe('REPLACE');
      expect(new URLSearchParams(router.state.location.search).get('notice')).toBe('logged-out');
      expect(await screen.findByText('Succesfully logged out.')).toBeInTheDocument();
      expect(sentBodies(fetchMock, 'POST auth/signout')).toHaveLength(1);
      expect(localStorage.getItem('clearing.draft.individual')).toBeNull();
      expect(localStorage.getItem('clearing.draft.business')).toBeNull();
      expect(localStorage.getItem(ACCOUNT_TYPE_STORAGE_KEY)).toBe('business');
      expect(queryClient.getQueryData(['statement', 'org-1'])).toBeUndefined();
      expect(queryClient.getQueryData(currentUserQueryKey)).toBeNull();
      expect(screen.queryByRole('link', { name: 'Signout' })).not.toBeInTheDocument();
      if (_label === 'fails') expect(logged).toHaveBeenCalled();
    },
  );

  it('sends a signed-out visitor to sign-in with the protected-page message', async () => {
    const fetchMock = mockApi({ 'GET user': () => json(401, { errorMessage: 'no' }) });
    const { router } = renderApp('/clearing/logout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/clearing/signin'));
    expect(new URLSearchParams(router.state.location.search).get('notice')).toBe('signin-required');
    expect(sentBodies(fetchMock, 'POST auth/signout')).toHaveLength(0);
  });
});
