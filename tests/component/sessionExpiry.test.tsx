/**
 * An expired session met by a background call (the LEI lookup): the page stays, a dialog asks
 * to sign in again (the 2FA code step when the account has one), the call is sent again and the
 * half-filled form is untouched; cancelling keeps the form with a notice that answers are kept.
 * The dialog is the sign-in page's form: a passkey answers its second step as on the page.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import type { RJSFSchema } from '@rjsf/utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeiRecord } from '../../src/shared/api/lei';
import type { User } from '../../src/shared/api/auth';
import type { JsonSchema } from '../../src/shared/forms/model/schemaTypes';
import { stepsOf } from '../../src/shared/forms/model/steps';
import { deref } from '../../src/shared/forms/walk/schemaWalk';
import { browserLocation } from '../../src/web/api/client';
import { currentUserQueryKey } from '../../src/web/api/get-current-user';
import { AppProviders } from '../../src/web/app/AppProviders';
import { SESSION_EXPIRED_TITLE } from '../../src/web/app/SessionExpiredDialog';
import { SessionRenewalDeclined } from '../../src/web/app/sessionExpiry';
import { SchemaForm, type Answers } from '../../src/web/forms/SchemaForm';
import { FormSession } from '../../src/web/forms/session';
import { field } from './forms/helpers';
import { json, mockApi, sentBodies } from './renderApp';
import { testForm } from '../forms';

const form = testForm('business');
const schema = form.schema as RJSFSchema;
const uiSchema = form.uiSchema;
const prompt = (key: string) =>
  deref(schema.properties![key] as JsonSchema, schema as JsonSchema).title!;

const LEI = '5493001KJTIIGC8Y1R12';
const record: LeiRecord = {
  lei: LEI,
  legalName: 'Acme Clearing Holdings LLC',
  addressLines: ['100 Main Street'],
  city: 'San Francisco',
  region: 'CA',
  postalCode: '94105',
  country: 'US',
  isNonUs: false,
};
const USER = {
  id: 'u-1',
  email: 'jane@example.com',
  isNorthstarClearingStaff: false,
  details: null,
  orgDetails: null,
  organizationId: null,
  roles: [],
} satisfies User;

// The browser's WebAuthn ceremony (jsdom has no authenticator): the assertion a passkey gives.
const startAuthentication = vi.hoisted(() => vi.fn());
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The business step in the app's providers, the user known as signed in. */
function renderBusinessStep() {
  const queryClient = new QueryClient();
  queryClient.setQueryData(currentUserQueryKey, USER);
  const committed: { current: Answers } = { current: {} };
  const session = new FormSession({
    form,
    initial: {},
  });
  session.goTo(stepsOf(uiSchema)!.findIndex((step) => step.id === 'business'));
  render(
    <AppProviders queryClient={queryClient}>
      <SchemaForm
        keepDraft={false}
        session={session}
        formData={{}}
        onAnswersChange={(answers) => (committed.current = answers)}
        onSubmit={vi.fn()}
      >
        <button type="submit">Send</button>
      </SchemaForm>
    </AppProviders>,
  );
  return { user: userEvent.setup(), committed, queryClient };
}

/** The LEI registry through our server: 401 while signed out, the record once signed in again. */
function server({ twoFactor, passkeyOnly = false }: { twoFactor: boolean; passkeyOnly?: boolean }) {
  let signedIn = false;
  return mockApi({
    'POST auth/signin/passkey': (body) => {
      const { response } = body as { response: { id: string } };
      if (response.id !== 'credential-1') return json(401, { errorMessage: 'Unknown passkey' });
      signedIn = true;
      return json(200, { authStatus: 'AuthComplete', user: USER });
    },
    [`GET lei-records/${LEI}`]: () =>
      signedIn ? json(200, record) : json(401, { errorMessage: 'Please sign in.' }),
    'POST auth/signin': (body) => {
      const { password, totpCode } = body as { password: string; totpCode?: string };
      if (password !== 'Secret-Pass-1') {
        return json(401, { errorMessage: 'Invalid email or password' });
      }
      if (passkeyOnly) {
        return json(200, {
          authStatus: 'TwoFactorRequired',
          methods: ['passkey'],
          passkeyOptions: { challenge: 'c2lnbi1pbg', allowCredentials: [] },
        });
      }
      if (twoFactor && !totpCode) return json(200, { authStatus: 'TwoFactorRequired' });
      signedIn = true;
      return json(200, { authStatus: 'AuthComplete', user: USER });
    },
  });
}

describe('an expired session during the LEI lookup', { timeout: 60_000 }, () => {
  it('asks to sign in again in place (with the 2FA code), looks up again, and keeps the answers', async () => {
    const fetchMock = server({ twoFactor: true });
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
    const { user, committed } = renderBusinessStep();
    await user.type(field(prompt('bizEmail')), 'compliance@acme.example');
    await user.click(field(prompt('lei')));
    await user.paste(LEI);

    const dialog = await screen.findByRole('dialog', { name: SESSION_EXPIRED_TITLE });
    expect(within(dialog).getByRole('textbox', { name: /Email/ })).toHaveValue(USER.email);
    expect(within(dialog).getByLabelText(/Password/)).toHaveFocus();
    await user.type(within(dialog).getByLabelText(/Password/), 'Wrong-Pass-1');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(await within(dialog).findByText('Invalid email or password')).toBeVisible();

    await user.clear(within(dialog).getByLabelText(/Password/));
    await user.type(within(dialog).getByLabelText(/Password/), 'Secret-Pass-1{Enter}');
    const code = await within(dialog).findByRole('textbox', { name: /2FA Code/ });
    await waitFor(() => expect(code).toHaveFocus());
    await user.type(code, '123456{Enter}');

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(field(prompt('bizName'))).toHaveValue(record.legalName));
    expect(field(prompt('bizEmail'))).toHaveValue('compliance@acme.example');
    expect(committed.current).toMatchObject({
      lei: LEI,
      bizName: record.legalName,
      bizEmail: 'compliance@acme.example',
    });
    expect(sentBodies(fetchMock, 'POST auth/signin')).toEqual([
      { email: USER.email, password: 'Wrong-Pass-1' },
      { email: USER.email, password: 'Secret-Pass-1' },
      { email: USER.email, password: 'Secret-Pass-1', totpCode: '123456' },
    ]);
    expect(
      fetchMock.mock.calls.filter(([url]) => String(url).endsWith(`lei-records/${LEI}`)),
    ).toHaveLength(2);
    expect(assign).not.toHaveBeenCalled();
  });

  it('Cancel leaves the form as it is and says the answers are kept', async () => {
    server({ twoFactor: false });
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
    const { user, committed } = renderBusinessStep();
    await user.type(field(prompt('bizEmail')), 'compliance@acme.example');
    await user.click(field(prompt('lei')));
    await user.paste(LEI);
    const dialog = await screen.findByRole('dialog', { name: SESSION_EXPIRED_TITLE });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText(new SessionRenewalDeclined().message)).toBeVisible();
    expect(field(prompt('bizEmail'))).toHaveValue('compliance@acme.example');
    expect(field(prompt('lei'))).toHaveValue(LEI);
    expect(committed.current).toMatchObject({ lei: LEI, bizEmail: 'compliance@acme.example' });
    expect(committed.current.bizName).toBeUndefined();
    // Not "the lookup failed": nothing was looked up, and the notice says why.
    expect(field(prompt('lei'))).not.toHaveAccessibleDescription(
      (uiSchema.lei as { 'ui:options': { failedText: string } })['ui:options'].failedText,
    );
    expect(assign).not.toHaveBeenCalled();
    // The notice's Sign in opens the dialog again (the notice loads with its Snackbar, lazily).
    const notice = screen.getByText(new SessionRenewalDeclined().message).closest('[role="alert"]');
    await user.click(within(notice as HTMLElement).getByRole('button', { name: 'Sign in' }));
    const again = await screen.findByRole('dialog', { name: SESSION_EXPIRED_TITLE });
    expect(screen.queryByText(new SessionRenewalDeclined().message)).toBeNull();
    await user.click(within(again).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(new SessionRenewalDeclined().message)).toBeVisible();
  });

  it('takes a passkey as the second step, as the sign-in page does', async () => {
    startAuthentication.mockResolvedValue({ id: 'credential-1', type: 'public-key' });
    const fetchMock = server({ twoFactor: true, passkeyOnly: true });
    const { user } = renderBusinessStep();
    await user.click(field(prompt('lei')));
    await user.paste(LEI);
    const dialog = await screen.findByRole('dialog', { name: SESSION_EXPIRED_TITLE });
    await user.type(within(dialog).getByLabelText(/Password/), 'Secret-Pass-1{Enter}');
    await user.click(await within(dialog).findByRole('button', { name: 'Use your passkey' }));
    expect(within(dialog).queryByRole('textbox', { name: /2FA Code/ })).toBeNull();

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(field(prompt('bizName'))).toHaveValue(record.legalName));
    expect(startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'c2lnbi1pbg', allowCredentials: [] },
    });
    expect(sentBodies(fetchMock, 'POST auth/signin/passkey')).toEqual([
      { response: { id: 'credential-1', type: 'public-key' } },
    ]);
  });
});
