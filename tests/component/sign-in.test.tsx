import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { browserLocation } from '../../src/web/api/client';
import {
  currentUserHandler,
  json,
  makeUser,
  mockApi,
  renderApp,
  sentBodies,
  unregisteredUser,
  type Handler,
} from './renderApp';

function setup(path: string, signin: Handler, extra: Record<string, Handler> = {}) {
  const fetchMock = mockApi({
    'GET user': currentUserHandler(null),
    'POST auth/signin': signin,
    ...extra,
  });
  return { fetchMock, ...renderApp(path) };
}

async function fillAndSubmit(email = 'avery@example.com', password = 'Secret123') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/^Email/), email);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  return user;
}

describe('SignInPage', () => {
  let assign: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('shows the field messages on an empty submit and sends nothing', async () => {
    const { fetchMock } = setup('/clearing/signin', () => json(200, {}));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription('Enter email');
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(
      'Please enter a password',
    );
    await user.type(screen.getByLabelText(/^Email/), 'not-an-email');
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription('Invalid email');
    expect(sentBodies(fetchMock, 'POST auth/signin')).toHaveLength(0);
  });

  it('turns autocapitalisation off on the email field', async () => {
    setup('/clearing/signin', () => json(200, {}));
    expect(await screen.findByLabelText(/^Email/)).toHaveAttribute('autocapitalize', 'off');
  });

  it('asks for the 2FA code on TwoFactorRequired and resubmits with totpCode', async () => {
    const signin = vi
      .fn<Handler>()
      .mockResolvedValueOnce(json(200, { authStatus: 'TwoFactorRequired' }))
      .mockResolvedValueOnce(json(200, { authStatus: 'AuthComplete', user: makeUser() }));
    const { fetchMock, router } = setup('/clearing/signin', signin);
    expect(screen.queryByLabelText(/2FA Code/)).not.toBeInTheDocument();
    const user = await fillAndSubmit();

    const code = await screen.findByLabelText(/2FA Code/);
    expect(code).toBeRequired();
    expect(code).toHaveAttribute('maxLength', '6');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(code).toHaveAccessibleDescription('Enter your 2FA code');

    await user.type(code, '1234567');
    expect(code).toHaveValue('123456');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/clearing/home'));
    expect(sentBodies(fetchMock, 'POST auth/signin')).toEqual([
      { email: 'avery@example.com', password: 'Secret123' },
      { email: 'avery@example.com', password: 'Secret123', totpCode: '123456' },
    ]);
  });

  it('shows Login Failed with the server message and the exchange pointer', async () => {
    setup('/clearing/signin', () => json(401, { errorMessage: 'Invalid email or password.' }));
    await fillAndSubmit();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Login Failed');
    expect(alert).toHaveTextContent('Invalid email or password.');
    expect(alert).toHaveTextContent(/Exchange users/);
    expect(screen.getByRole('link', { name: 'exchange sign-in page' })).toHaveAttribute(
      'href',
      '/exchange/dashboard/signin',
    );
    expect(assign).not.toHaveBeenCalled(); // a 401 from auth/* never redirects
  });

  it('sends staff to the admin site with a full page load', async () => {
    const staff = makeUser({ isNorthstarClearingStaff: true });
    setup('/clearing/signin', () => json(200, { authStatus: 'AuthComplete', user: staff }));
    await fillAndSubmit();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/clearing/admin'));
  });

  it('follows a safe redirect parameter after sign-in', async () => {
    const { router } = setup(
      '/clearing/signin?redirect=%2Fclearing%2Fregulation%2Fdisclosures',
      () => json(200, { authStatus: 'AuthComplete', user: makeUser() }),
    );
    await fillAndSubmit();
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/clearing/regulation/disclosures'),
    );
  });

  it('ignores a redirect outside /clearing and goes home', async () => {
    const { router } = setup('/clearing/signin?redirect=https%3A%2F%2Fevil.example%2F', () =>
      json(200, { authStatus: 'AuthComplete', user: makeUser() }),
    );
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/clearing/home'));
  });

  it('sends a user without details to registration', async () => {
    const { router } = setup('/clearing/signin?redirect=%2Fclearing%2Fhome', () =>
      json(200, { authStatus: 'AuthComplete', user: unregisteredUser() }),
    );
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/clearing/registration'));
  });

  it('shows a handed-over notice key as its text in a toast that hides itself after 6000 ms', async () => {
    // The toast loads on demand; load its module before the clock is frozen.
    await import('../../src/web/pages/auth/InfoToast');
    vi.useFakeTimers({ shouldAdvanceTime: false });
    setup('/clearing/signin?notice=logged-out', () => json(200, {}));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(screen.getByText('Succesfully logged out.')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5800);
    });
    expect(screen.getByText('Succesfully logged out.')).toBeInTheDocument();
    // The hide fires at 6000 ms; the exit transition then runs on the next timers.
    for (const step of [1000, 1000]) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(step);
      });
    }
    expect(screen.queryByText('Succesfully logged out.')).not.toBeInTheDocument();
  });

  it('shows no toast for text or unknown keys in the address bar', async () => {
    await import('../../src/web/pages/auth/InfoToast');
    const planted = 'Your account is locked. Call +1 900 555 0100';
    for (const query of [
      `message=${encodeURIComponent(planted)}`,
      `notice=${encodeURIComponent(planted)}`,
      'notice=constructor',
    ]) {
      const { unmount } = setup(`/clearing/signin?${query}`, () => json(200, {}));
      expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(screen.queryByText(planted)).not.toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      unmount();
    }
  });

  it('has a Forgot Password view that posts the email and shows the received notice', async () => {
    const fetchMock = mockApi({
      'GET user': currentUserHandler(null),
      'POST auth/password/reset/request': () => json(204),
    });
    renderApp('/clearing/signin');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Forgot Password?' }));
    expect(screen.getByRole('heading', { name: 'Forgot Password' })).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription('Enter email');
    await user.type(screen.getByLabelText(/^Email/), 'avery@example.com');
    fireEvent.submit(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText(/We received your request/)).toBeInTheDocument();
    expect(sentBodies(fetchMock, 'POST auth/password/reset/request')).toEqual([
      { email: 'avery@example.com', authOrigin: 'Clearing' },
    ]);
  });

  it('links to the separate exchange sign-in', async () => {
    setup('/clearing/signin', () => json(200, {}));
    expect(await screen.findByRole('link', { name: 'Sign in to the exchange' })).toHaveAttribute(
      'href',
      '/exchange/dashboard/signin',
    );
  });
});
