import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { firm } from '../../src/shared/config/firm';
import { PASSWORD_RULE } from '../../src/shared/rules/password';
import { NETWORK_FAILURE_MESSAGE } from '../../src/web/api/client';
import { testForm } from '../forms';
import { deref } from '../../src/shared/forms/walk/schemaWalk';
import { IMAGE_ACCEPT } from '../../src/web/forms/widgets/ImageUploadWidget';
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
const PASSWORD = 'Quay-Lantern-48!';

type User = ReturnType<typeof userEvent.setup>;

/** The page draws the person form: its prompts, placeholders and messages, read from the files. */
const person = testForm('person');
const prompt = (key: string) => deref(person.schema.properties![key]!, person.schema).title!;
const required = (person.schema.errorMessage as { required: Record<string, string> }).required;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A field by its prompt (the required asterisk after it). */
const field = (key: string) => screen.getByLabelText(new RegExp(`^${escaped(prompt(key))}`));

function setup(accept: Handler = () => json(200, {})) {
  return mockApi({
    'GET user': currentUserHandler(null),
    'POST auth/invite/accept': accept,
  });
}

/** The page's hidden file input (the visible control is the Choose file button). */
function photoInput(): HTMLInputElement {
  return screen.getByLabelText(new RegExp(`^${escaped(prompt('photoId'))}`), { selector: 'input' });
}

/** A PNG's signature: the upload widget records a file's type from its first bytes. */
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** Focuses a field and pastes into it (one input event: quicker than typing each key). */
async function paste(user: User, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

async function fillValidForm(user: User) {
  await screen.findByRole('button', { name: 'Accept Invitation' });
  await paste(user, field('firstName'), '  Robin ');
  await paste(user, field('lastName'), 'Vale');
  await paste(user, field('phoneNumber'), '+1 (212) 555-0142');
  await user.upload(photoInput(), new File([PNG_BYTES], 'id-front.png', { type: 'image/png' }));
  await paste(user, screen.getByLabelText(/^Password/), PASSWORD);
  await paste(user, screen.getByLabelText(/^Confirm Password/), PASSWORD);
}

// Whole-app renders of a schema form with several fields: more than the 5 s default on a busy
// shared machine (a test fills six fields and chooses a file).
describe('AcceptInvitePage', { timeout: 60_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    '/clearing/user/accept-invite',
    `/clearing/user/accept-invite?organization_id=${ORG}&email=a%40b.co`,
    '/clearing/user/accept-invite?access_token=t&email=a%40b.co',
    `/clearing/user/accept-invite?access_token=t&organization_id=${ORG}`,
  ])('shows the invalid-URL message and support contact on %s', async (path) => {
    setup();
    renderApp(path);
    // The first render loads the page's chunk (the form engine with it).
    const alert = await screen.findByRole('alert', {}, { timeout: 15_000 });
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
    expect(await waitFor(() => field('phoneNumber'))).toHaveAttribute(
      'placeholder',
      (person.uiSchema.phoneNumber as Record<string, string>)['ui:placeholder'],
    );
    // The business wizard's photo ID: an image, or a scan as a PDF.
    expect(photoInput()).toHaveAttribute('accept', `${IMAGE_ACCEPT},application/pdf`);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Accept Invitation');
  });

  it('shows every field message on submit and sends nothing', async () => {
    const fetchMock = setup();
    renderApp(VALID_PATH);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Accept Invitation' }));
    await waitFor(() =>
      expect(field('firstName')).toHaveAccessibleDescription(required.firstName!),
    );
    expect(field('lastName')).toHaveAccessibleDescription(required.lastName!);
    expect(field('phoneNumber')).toHaveAccessibleDescription(required.phoneNumber!);
    const choose = screen.getByRole('button', { name: /Choose file/ });
    expect(choose).toHaveAccessibleDescription(new RegExp(escaped(required.photoId!)));
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(
      `Enter password ${PASSWORD_RULE}`,
    );
    expect(screen.getByLabelText(/^Confirm Password/)).toHaveAccessibleDescription(
      'Confirm password',
    );
    // Focus goes to the first field with a problem.
    await waitFor(() => expect(field('firstName')).toHaveFocus());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('refuses what the registration refuses: a script-tag name, a phone number too short', async () => {
    setup();
    renderApp(VALID_PATH);
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Accept Invitation' });
    await paste(user, field('firstName'), '<script>alert(1)</script>');
    await user.tab();
    const nameRule = deref(person.schema.properties!.firstName!, person.schema)['x-name'] as {
      invalidCharacters: string;
    };
    await waitFor(() =>
      expect(field('firstName')).toHaveAccessibleDescription(nameRule.invalidCharacters),
    );
    // The phone widget puts a missing '+' in itself; a number too short is refused by the rule.
    const phone = field('phoneNumber');
    await paste(user, phone, '+1');
    await user.tab();
    const phoneRule = deref(person.schema.properties!.phoneNumber!, person.schema)['x-phone'] as {
      tooShort: string;
    };
    await waitFor(() =>
      expect(phone).toHaveAccessibleDescription(new RegExp(escaped(phoneRule.tooShort))),
    );
  });

  it('checks the password rules', async () => {
    setup();
    renderApp(VALID_PATH);
    const user = userEvent.setup();
    const password = await screen.findByLabelText(/^Password/);
    await paste(user, password, 'abcdef');
    await user.tab();
    expect(password).toHaveAccessibleDescription(`Password is too weak ${PASSWORD_RULE}`);
    await paste(user, screen.getByLabelText(/^Confirm Password/), 'other');
    await user.tab();
    expect(screen.getByLabelText(/^Confirm Password/)).toHaveAccessibleDescription(
      'Passwords must match',
    );
  });

  it('shows the chosen file name beside an accessible button', async () => {
    setup();
    renderApp(VALID_PATH);
    const user = userEvent.setup();
    await user.upload(
      await waitFor(() => photoInput()),
      new File(['x'.repeat(2048)], 'passport.jpg', { type: 'image/jpeg' }),
    );
    const replace = await screen.findByRole('button', { name: /Replace file/ });
    expect(replace).toHaveAccessibleDescription(/passport\.jpg \(2\.0 KB\)/);
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
    expect((photo as File).size).toBe(PNG_BYTES.length);

    // Multipart: no JSON content type (the browser sets the boundary), the CSRF path is apiFetch's.
    const init = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')![1]!;
    expect((init.headers as Record<string, string>)['content-type']).toBeUndefined();
  });

  it('shows the server errorMessage with the support hint, and field errors', async () => {
    const message = 'Contains invalid characters';
    setup(() => json(400, { errorMessage: message, errors: { last_name: message } }));
    renderApp(VALID_PATH);
    const user = userEvent.setup();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Accept Invitation' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(alert).toHaveTextContent(`If this problem persists, please contact support at`);
    expect(alert).toHaveTextContent(firm.supportEmail);
    await waitFor(() => expect(field('lastName')).toHaveAccessibleDescription(message));
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
    expect(field('lastName')).toHaveValue('Vale');
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
