import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { firm } from '../../src/shared/config/firm';
import {
  currentUserHandler,
  json,
  mockApi,
  renderApp,
  sentBodies,
  type Handler,
} from './renderApp';

function setup(siteKey: string, signup: Handler = () => json(204)) {
  const fetchMock = mockApi({
    'GET user': currentUserHandler(null),
    'GET config': () => json(200, { recaptcha_site_key: siteKey }),
    'POST auth/signup': signup,
  });
  renderApp('/clearing/signup');
  return fetchMock;
}

async function submit(email: string) {
  const user = userEvent.setup();
  const field = await screen.findByLabelText(/^Email/);
  if (email) await user.type(field, email);
  await waitFor(() => expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled());
  await user.click(screen.getByRole('button', { name: 'Sign Up' }));
  return field;
}

describe('SignUpPage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    delete window.grecaptcha;
    document.head.querySelectorAll('script').forEach((script) => script.remove());
  });

  it('requires a valid email: Enter email, Invalid email', async () => {
    const fetchMock = setup('');
    const field = await submit('');
    expect(field).toHaveAccessibleDescription('Enter email');
    await userEvent.type(field, 'avery@');
    expect(field).toHaveAccessibleDescription('Invalid email');
    expect(field).toHaveAttribute('autocapitalize', 'off');
    expect(sentBodies(fetchMock, 'POST auth/signup')).toHaveLength(0);
  });

  it('signs up without a captcha when the site key is empty and shows the thank-you notice', async () => {
    const fetchMock = setup('');
    await submit('avery@example.com');
    expect(
      await screen.findByText('Verify your email with the link sent to your email.'),
    ).toBeInTheDocument();
    expect(sentBodies(fetchMock, 'POST auth/signup')).toEqual([
      { email: 'avery@example.com', authOrigin: 'Clearing' },
    ]);
    expect(document.querySelector('script[src*="recaptcha"]')).toBeNull();
  });

  it('loads the captcha and sends its signup token when a site key is configured', async () => {
    const execute = vi.fn().mockResolvedValue('captcha-token');
    window.grecaptcha = { ready: (callback) => callback(), execute };
    const fetchMock = setup('site-key-1');
    await submit('avery@example.com');
    expect(await screen.findByText(/Verify your email/)).toBeInTheDocument();
    expect(
      document.querySelector(
        'script[src="https://www.google.com/recaptcha/api.js?render=site-key-1"]',
      ),
    ).not.toBeNull();
    expect(execute).toHaveBeenCalledWith('site-key-1', { action: 'signup' });
    expect(sentBodies(fetchMock, 'POST auth/signup')).toEqual([
      { email: 'avery@example.com', recaptchaToken: 'captcha-token', authOrigin: 'Clearing' },
    ]);
  });

  it("says 'Google Captcha not available' when the captcha did not load", async () => {
    const fetchMock = setup('site-key-1');
    await submit('avery@example.com');
    expect(await screen.findByText('Google Captcha not available')).toBeInTheDocument();
    expect(sentBodies(fetchMock, 'POST auth/signup')).toHaveLength(0);
  });

  it('shows Signup Failed with the server message and the support hint', async () => {
    setup('', () => json(400, { errorMessage: 'Sign-ups are paused.' }));
    await submit('avery@example.com');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Signup Failed');
    expect(alert).toHaveTextContent('Sign-ups are paused.');
    expect(alert).toHaveTextContent(`contact support at ${firm.supportEmail}`);
  });
});
