import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import type { Profile } from '../../../src/shared/api/account';
import { AppProviders } from '../../../src/web/app/AppProviders';
import { ProfilePage } from '../../../src/web/pages/profile/ProfilePage';
import { json, mockApi, type Handler } from '../renderApp';

/**
 * The Profile page drawn with the API answering `profile` (read at each request, so a test may
 * change it), no other sessions, and `handlers` (which win); the fetch mock, to read what was sent.
 */
export function renderProfile(
  profile: Profile | (() => Profile),
  handlers: Record<string, Handler> = {},
) {
  const fetchMock = mockApi({
    'GET user/profile': () => json(200, typeof profile === 'function' ? profile() : profile),
    'GET user/sessions': () => json(200, { sessions: [], placesAttribution: null }),
    ...handlers,
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AppProviders queryClient={queryClient}>
      <ProfilePage />
    </AppProviders>,
  );
  return fetchMock;
}
