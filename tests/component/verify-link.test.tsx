/**
 * Issue 38 §4: a dead verification link is said as the page opens, with a way to a new link, not
 * after a password is typed; the sign-up's thank-you notice sends the email again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEAD_VERIFY_LINK_MESSAGE } from '../../src/web/pages/auth/VerifyEmailPage';
import { currentUserHandler, json, mockApi, renderApp, sentBodies } from './renderApp';

afterEach(() => vi.unstubAllGlobals());

function setup(usable: boolean) {
  return mockApi({
    'GET user': currentUserHandler(null),
    'GET config': () => json(200, { recaptcha_site_key: '' }),
    'POST auth/verify-email/check': () => json(200, { usable }),
    'POST auth/verify-email': () => json(400, { errorMessage: 'not reached' }),
    'POST auth/signup': () => json(200, {}),
  });
}

describe('the verify-email page checks its link first', () => {
  it('says at once that a dead link no longer works, asks for no password, and sends a new link', async () => {
    const fetchMock = setup(false);
    renderApp('/clearing/user/verify-email?email=a%40b.co&access_token=old');
    expect(await screen.findByText(DEAD_VERIFY_LINK_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'This link no longer works' })).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Set Password' })).toBeNull();
    expect(sentBodies(fetchMock, 'POST auth/verify-email/check')).toEqual([
      { token: 'old', email: 'a@b.co' },
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Send me a new link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'We have asked for a new email to a@b.co.',
    );
    expect(sentBodies(fetchMock, 'POST auth/signup')).toEqual([
      { email: 'a@b.co', authOrigin: 'Clearing' },
    ]);
    expect(sentBodies(fetchMock, 'POST auth/verify-email')).toEqual([]);
    const signIn = within(screen.getByText(/Already set your password/)).getByRole('link', {
      name: 'Sign In',
    });
    expect(signIn).toHaveAttribute('href', '/clearing/signin');
  });

  it('shows the password form for a live link', async () => {
    setup(true);
    renderApp('/clearing/user/verify-email?email=a%40b.co&access_token=live');
    expect(await screen.findByRole('button', { name: 'Set Password' })).toBeInTheDocument();
    expect(screen.queryByText(DEAD_VERIFY_LINK_MESSAGE)).toBeNull();
  });

  it('shows the form when the check cannot be made, leaving the submission to say', async () => {
    mockApi({
      'GET user': currentUserHandler(null),
      'POST auth/verify-email/check': () => json(429, { errorMessage: 'Too many attempts.' }),
    });
    renderApp('/clearing/user/verify-email?email=a%40b.co&access_token=t');
    expect(await screen.findByRole('button', { name: 'Set Password' })).toBeInTheDocument();
  });
});

describe('the sign-up’s thank-you notice', () => {
  it('sends the email again to the address signed up with', async () => {
    const fetchMock = setup(true);
    renderApp('/clearing/signup');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Email/), 'avery@example.com');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(
      await screen.findByText('Verify your email with the link sent to your email.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send the email again' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'We have asked for a new email to avery@example.com.',
    );
    expect(sentBodies(fetchMock, 'POST auth/signup')).toEqual([
      { email: 'avery@example.com', authOrigin: 'Clearing' },
      { email: 'avery@example.com', authOrigin: 'Clearing' },
    ]);
  });
});
