import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { User } from '../../src/shared/api/auth';
import { browserLocation } from '../../src/web/api/client';
import { ACCOUNT_TYPE_STORAGE_KEY } from '../../src/web/pages/registration/RegistrationChoicePage';
import {
  currentLocation,
  currentUserHandler,
  json,
  makeUser,
  mockApi,
  renderApp,
  unregisteredUser,
} from './renderApp';
import { testForm } from '../forms';

function signedIn(user: User | null) {
  mockApi({
    'GET user': currentUserHandler(user),
    'GET config': () => new Response('{}'),
    // No application saved yet: the registration pages open empty.
    'GET applications/business': () => json(200, { application: null }),
    'GET applications/individual': () => json(200, { application: null }),
  });
}

async function expectAt(router: ReturnType<typeof renderApp>['router'], pathname: string) {
  await waitFor(() => expect(router.state.location.pathname).toBe(`/clearing${pathname}`));
}

describe('routing guards (access §2)', () => {
  let assign: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('shows sign-up on /clearing and /clearing/signup when signed out', async () => {
    signedIn(null);
    renderApp('/clearing');
    expect(await screen.findByRole('heading', { name: 'Sign Up' })).toBeInTheDocument();
  });

  it('asks a signed-out visitor only the sign-in check, which answers 200 (no failed request)', async () => {
    const fetchMock = mockApi({
      'GET auth/signin': () => json(200, { status: 'NotAuthenticated' }),
      'GET user': currentUserHandler(null),
      'GET config': () => new Response('{}'),
    });
    renderApp('/clearing/signin');
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    const asked = fetchMock.mock.calls.map(([input]) => String(input));
    expect(asked).toContain('/exchange/api/web/auth/signin');
    expect(asked).not.toContain('/exchange/api/web/user');
  });

  it('sends staff without a registration from home and registration to the staff console', async () => {
    for (const path of ['/clearing/home', '/clearing/registration']) {
      assign.mockClear();
      signedIn(makeUser({ ...unregisteredUser(), isNorthstarClearingStaff: true }));
      const { unmount } = renderApp(path);
      await waitFor(() => expect(assign).toHaveBeenCalledWith('/clearing/admin'));
      expect(screen.queryByRole('heading', { name: /Welcome|account type/i })).toBeNull();
      unmount();
    }
  });

  it('sends a signed-in user on /clearing to /clearing/home', async () => {
    signedIn(makeUser());
    const { router } = renderApp('/clearing');
    await expectAt(router, '/home');
    expect(await screen.findByRole('heading', { name: 'Welcome Avery!' })).toBeInTheDocument();
  });

  it.each(['/clearing/signup', '/clearing/user/verify-email?email=a@b.co&access_token=t'])(
    'sends a signed-in user on the signed-out page %s to /clearing (then home)',
    async (path) => {
      signedIn(makeUser());
      const { router } = renderApp(path);
      await expectAt(router, '/home');
    },
  );

  it('sends an unauthenticated user on a protected page to sign-in with the message', async () => {
    signedIn(null);
    const { router } = renderApp('/clearing/home');
    await expectAt(router, '/signin');
    const { params } = currentLocation(router);
    expect(params.get('notice')).toBe('signin-required');
    expect(params.get('redirect')).toBe('/clearing/home');
    expect(await screen.findByText('Please sign in to view that content.')).toBeInTheDocument();
  });

  it('treats a failed auth check as signed out', async () => {
    mockApi({ 'GET user': () => Promise.reject(new TypeError('network down')) });
    const { router } = renderApp('/clearing/registration');
    await expectAt(router, '/signin');
  });

  it('sends a signed-in user without details from home to registration', async () => {
    signedIn(unregisteredUser());
    const { router } = renderApp('/clearing/home');
    await expectAt(router, '/registration');
    expect(await screen.findByRole('button', { name: 'Get Started' })).toBeInTheDocument();
  });

  it('keeps a user without details on the registration pages', async () => {
    signedIn(unregisteredUser());
    const { router } = renderApp('/clearing/registration/business');
    // The wizard's heading is its schema's title.
    const title = testForm('business').schema.title!;
    // A lazy page that loads the form engine: slow under jsdom on a shared machine.
    expect(await screen.findByRole('heading', { name: title }, { timeout: 15_000 })).toBeVisible();
    expect(router.state.location.pathname).toBe('/clearing/registration/business');
  });

  it('sends a registered user away from registration to home', async () => {
    signedIn(makeUser());
    const { router } = renderApp('/clearing/registration/individual');
    await expectAt(router, '/home');
  });

  it.each([
    ['without details', unregisteredUser()],
    ['registered', makeUser()],
    ['signed out', null],
  ])(
    'shows the not-found page for an unknown registration form id, %s (issue 38 §4)',
    async (_who, user) => {
      signedIn(user);
      const { router } = renderApp('/clearing/registration/no-such-form');
      expect(
        await screen.findByRole('heading', { name: 'Page not found' }, { timeout: 15_000 }),
      ).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/clearing/registration/no-such-form');
    },
  );

  it('offers every registration form of the catalog, as its schema says, in its order', async () => {
    signedIn(unregisteredUser());
    renderApp('/clearing/registration?returned=1');
    await screen.findByRole('button', { name: 'Get Started' });
    const kinds = ['individual', 'business'].map((id) => testForm(id).registration!.choice);
    expect(
      screen.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent),
    ).toEqual(kinds.map((choice) => `${choice.label}${choice.description}`));
  });

  it.each([
    ['signed in', makeUser()],
    ['signed out', null],
  ])(
    'shows unknown /clearing paths the not-found page with a way home, %s (issue 38 §4)',
    async (_who, user) => {
      signedIn(user);
      const { router } = renderApp('/clearing/no/such/page');
      expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute(
        'href',
        '/clearing/home',
      );
      // The address stays what was asked for: no redirect hides the mistake.
      expect(router.state.location.pathname).toBe('/clearing/no/such/page');
    },
  );

  it('hands /clearing/admin/* to the server with a full page load of the same URL', async () => {
    signedIn(makeUser({ isNorthstarClearingStaff: true }));
    renderApp('/clearing/admin/registrations?page=2');
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('/clearing/admin/registrations?page=2'),
    );
  });

  it('shows the public disclosures pages to signed-out visitors', async () => {
    signedIn(null);
    const { router } = renderApp('/clearing/regulation/disclosures/audited-financial');
    expect(
      await screen.findByRole('heading', { name: 'Audited Financial Statement' }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe(
      '/clearing/regulation/disclosures/audited-financial',
    );
  });

  it('goes straight to the remembered registration type unless ?returned is present', async () => {
    localStorage.setItem(ACCOUNT_TYPE_STORAGE_KEY, 'business');
    signedIn(unregisteredUser());
    const first = renderApp('/clearing/registration');
    await expectAt(first.router, '/registration/business');
    first.unmount();

    const second = renderApp('/clearing/registration?returned=1');
    expect(await screen.findByRole('button', { name: 'Get Started' })).toBeEnabled();
    expect(screen.getByRole('radio', { name: /Business/ })).toBeChecked();
    expect(second.router.state.location.pathname).toBe('/clearing/registration');
  });
});
