import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { firm } from '../../src/shared/config/firm';
import { NETWORK_FAILURE_MESSAGE } from '../../src/web/api/client';
import {
  currentLocation,
  currentUserHandler,
  json,
  mockApi,
  renderApp,
  type Handler,
} from './renderApp';

const ORG = '6f1c1c3e-8d6a-4c59-9d36-2f3f5b0a7e11';
const VALID_PATH = `/clearing/user/accept-invite?access_token=tok-1&organization_id=${ORG}&email=invitee%40example.com`;
const PASSWORD = 'Secret123!';

type User = ReturnType<typeof userEvent.setup>;

function setup(accept: Handler = () => json(200, {})) {
  return mockApi({
    'GET user': currentUserHandler(null),
    'POST auth/invite/accept': accept,
  });
}

/** The page's hidden file input (the visible control is the Choose image button). */
function photoInput(): HTMLInputElement {
  return screen.getByLabelText(/^Photo ID/, { selector: 'input' });
}

/** A file's text (jsdom's File has no text()). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

/** Focuses a field and pastes into it (one input event: quicker than typing each key). */
async function paste(user: User, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

async function fillValidForm(user: User) {
  await paste(user, await screen.findByLabelText(/^First Name/), '  Robin ');
  await paste(user, screen.getByLabelText(/^Last Name/), 'Vale');
  await paste(user, screen.getByLabelText(/^Phone Number/), '+1 (212) 555-0142');
  await user.upload(photoInput(), new File(['png-bytes'], 'id-front.png', { type: 'image/png' }));
  await paste(user, screen.getByLabelText(/^Password/), PASSWORD);
  await paste(user, screen.getByLabelText(/^Confirm Password/), PASSWORD);
}

// Whole-app renders with several fields: more than the 5 s default on a busy machine.
describe('AcceptInvitePage', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    '/clearing/user/accept-invite',
    `/clearing/user/accept-invite?organization_id=${ORG}&email=a%40b.co`,
    '/clearing/user/accept-invite?access_token=t&email=a%40b.co',
    `/clearing/user/accept-invite?access_token=t&organization_id=${ORG}`,
  ])('shows the invalid-URL message and support contact on %s', async (path) => {
    setup();
    renderApp(path);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Invalid URL. Reach out to an admin to get a new invitation url.',
    );
    expect(alert).toHaveTextContent(firm.supportEmail);
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept Invitation' })).not.toBeInTheDocument();
  });

  it('shows the email read-only and the phone placeholder', async () => {
    setup();
    renderApp(VALID_PATH);
    const email = await screen.findByLabelText(/^Email/);
    expect(email).toHaveValue('invitee@example.com');
    expect(email).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Phone Number/)).toHaveAttribute(
      'placeholder',
      '+1 123 456 7890',
    );
    expect(photoInput()).toHaveAttribute('accept', 'image/*,.heic,.heif');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Accept Invitation');
  });

  it('shows every field message on submit and sends nothing', async () => {
    const fetchMock = setup();
    renderApp(VALID_PATH);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Accept Invitation' }));
    expect(screen.getByLabelText(/^First Name/)).toHaveAccessibleDescription(
      'Must provide first name',
    );
    expect(screen.getByLabelText(/^Last Name/)).toHaveAccessibleDescription(
      'Must provide last name',
    );
    expect(screen.getByLabelText(/^Phone Number/)).toHaveAccessibleDescription(
      'Enter phone number',
    );
    const choose = screen.getByRole('button', { name: /Choose image.*Photo ID/ });
    expect(choose).toHaveAccessibleDescription(/Must provide Government Id/);
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription('Enter password');
    expect(screen.getByLabelText(/^Confirm Password/)).toHaveAccessibleDescription(
      'Confirm password',
    );
    // Focus goes to the first field with a problem.
    expect(screen.getByLabelText(/^First Name/)).toHaveFocus();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('checks the phone number and the password rules', async () => {
    setup();
    renderApp(VALID_PATH);
    const user = userEvent.setup();
    const phone = await screen.findByLabelText(/^Phone Number/);
    await user.type(phone, '12');
    await user.tab();
    expect(phone).toHaveValue('+1 2');
    expect(phone).toHaveAccessibleDescription('Invalid phone number');
    await user.type(phone, '125550142');
    expect(phone).toHaveValue('+1 212 555 0142');
    expect(phone).not.toHaveAccessibleDescription();

    const password = screen.getByLabelText(/^Password/);
    await paste(user, password, 'abcdef');
    await user.tab();
    expect(password).toHaveAccessibleDescription('Password is too weak');
    await paste(user, screen.getByLabelText(/^Confirm Password/), 'other');
    await user.tab();
    expect(screen.getByLabelText(/^Confirm Password/)).toHaveAccessibleDescription(
      'Passwords must match',
    );
  });

  it('shows the chosen file name on an accessible button', async () => {
    setup();
    renderApp(VALID_PATH);
    const user = userEvent.setup();
    await user.upload(
      await waitFor(() => photoInput()),
      new File(['x'.repeat(2048)], 'passport.jpg', { type: 'image/jpeg' }),
    );
    const replace = screen.getByRole('button', { name: /Replace image.*Photo ID/ });
    expect(replace).toHaveAccessibleDescription(/passport\.jpg \(2\.0 KB\)/);
    expect(screen.getByText('passport.jpg (2.0 KB)')).toBeInTheDocument();
  });

  it('posts every field and the file as multipart, then goes to sign-in with the message', async () => {
    let sent: FormData | undefined;
    const fetchMock = setup((_body, init) => {
      sent = init.body as FormData;
      return json(200, {});
    });
    const { router } = renderApp(VALID_PATH);
    const user = userEvent.setup();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Accept Invitation' }));

    await waitFor(() => expect(currentLocation(router).pathname).toBe('/clearing/signin'));
    expect(currentLocation(router).params.get('notice')).toBe('invite-accepted');
    expect(
      await screen.findByText('Invitation accepted. Please sign in to continue.'),
    ).toBeInTheDocument();

    expect(sent).toBeInstanceOf(FormData);
    const form = sent!;
    expect(form.get('access_token')).toBe('tok-1');
    expect(form.get('organization_id')).toBe(ORG);
    expect(form.get('email')).toBe('invitee@example.com');
    expect(form.get('first_name')).toBe('Robin');
    expect(form.get('last_name')).toBe('Vale');
    expect(form.get('phone_number')).toBe('+12125550142');
    expect(form.get('password_text')).toBe(PASSWORD);
    expect(form.getAll('role')).toEqual([]);
    const photo = form.get('photo_id');
    expect(photo).toBeInstanceOf(File);
    expect((photo as File).name).toBe('id-front.png');
    expect((photo as File).type).toBe('image/png');
    expect(await readText(photo as File)).toBe('png-bytes');

    // Multipart: no JSON content type (the browser sets the boundary), the CSRF path is apiFetch's.
    const init = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')![1]!;
    expect((init.headers as Record<string, string>)['content-type']).toBeUndefined();
  });

  it('shows the server errorMessage with the support hint, and field errors', async () => {
    setup(() =>
      json(400, {
        errorMessage: 'Please correct the highlighted fields.',
        errors: { phone_number: 'Invalid phone number' },
      }),
    );
    renderApp(VALID_PATH);
    const user = userEvent.setup();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Accept Invitation' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Please correct the highlighted fields.');
    expect(alert).toHaveTextContent(`If this problem persists, please contact support at`);
    expect(alert).toHaveTextContent(firm.supportEmail);
    expect(screen.getByLabelText(/^Phone Number/)).toHaveAccessibleDescription(
      'Invalid phone number',
    );
    expect(screen.getByRole('button', { name: 'Accept Invitation' })).toBeEnabled();
  });

  it('a connection lost on the way: says so, keeps every answer and the photo, and tries again', async () => {
    let calls = 0;
    setup(() => {
      calls++;
      return calls === 1 ? Promise.reject(new TypeError('Failed to fetch')) : json(200, {});
    });
    const { router } = renderApp(VALID_PATH);
    const user = userEvent.setup();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(NETWORK_FAILURE_MESSAGE);
    expect(screen.getByLabelText(/^Last Name/)).toHaveValue('Vale');
    expect(screen.getByText(/id-front\.png/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    await waitFor(() => expect(currentLocation(router).pathname).toBe('/clearing/signin'));
    expect(calls).toBe(2);
  });

  it('shows an expired-link failure from the server', async () => {
    setup(() =>
      json(400, { errorMessage: 'This link is invalid or has expired. Please ask for a new one.' }),
    );
    renderApp(VALID_PATH);
    const user = userEvent.setup();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link is invalid or has expired. Please ask for a new one.',
    );
  });

  it('uses the dark header variant', async () => {
    setup();
    const { container } = renderApp(VALID_PATH);
    await screen.findByRole('button', { name: 'Accept Invitation' });
    expect(container.querySelector('[data-variant="dark"]')).not.toBeNull();
  });
});
