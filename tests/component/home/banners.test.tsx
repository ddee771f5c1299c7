import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { currentUserHandler, json, makeUser, mockApi, renderApp, sentBodies } from '../renderApp';
import { firm } from '../../../src/shared/config/firm';
import { stubWebSocket } from './helpers';
import { statementFixture } from './statementFixture';

const STATEMENT_CALL = 'GET customer/org-1/statement';
const NO_STATEMENT = () => json(404, { errorMessage: 'No statement is available yet.' });

function pendingUser() {
  const user = makeUser();
  user.details = { ...user.details!, approved: false };
  return user;
}

const statementCalls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([input]) => String(input).includes('/statement'));

beforeEach(() => stubWebSocket());
afterEach(() => vi.unstubAllGlobals());

describe('home banners by approval and statement state', () => {
  it('tells a customer awaiting review that the application was received, and never fetches the statement', async () => {
    const fetchMock = mockApi({
      'GET user': currentUserHandler(pendingUser()),
      [STATEMENT_CALL]: () => json(200, statementFixture()),
    });
    renderApp('/clearing/home');
    expect(await screen.findByRole('heading', { name: 'Welcome Avery!' })).toBeInTheDocument();
    expect(
      screen.getByText(
        "Your application has been received. We'll let you know once it has been reviewed.",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('Your application has been approved.')).not.toBeInTheDocument();
    // Give a wrongly enabled query the chance to fire before checking it did not.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statementCalls(fetchMock)).toHaveLength(0);
  });

  it('tells an applicant asked for changes what to change and how, and fetches no statement', async () => {
    const user = pendingUser();
    const note = 'Please upload a sharper photo of the back of your ID.';
    user.review = { status: 'changes_requested', reason: note };
    const fetchMock = mockApi({
      'GET user': currentUserHandler(user),
      // The request as the registration holds it: a note and the question it names.
      'GET registration': () =>
        json(200, {
          registration: {
            registrationId: 'reg-1',
            formId: 'individual',
            status: 'changes_requested',
            history: [],
            changeRequest: {
              note,
              fields: [{ path: '/photoIdBack', prompt: 'Photo ID (back)', note: 'Too blurry' }],
            },
          },
        }),
      [STATEMENT_CALL]: () => json(200, statementFixture()),
    });
    renderApp('/clearing/home');
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Your application needs changes');
    expect(await within(banner).findByText(note)).toBeInTheDocument();
    expect(within(banner).getByRole('list', { name: 'Requested changes' })).toHaveTextContent(
      'Photo ID (back)',
    );
    expect(within(banner).getByRole('link', { name: 'Make the changes' })).toBeInTheDocument();
    expect(banner).toHaveTextContent(firm.supportEmail);
    expect(screen.queryByText(/application has been received/)).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statementCalls(fetchMock)).toHaveLength(0);
  });

  it('never shows the changes banner without its list and button: a loading line until they come', async () => {
    const user = pendingUser();
    user.review = { status: 'changes_requested', reason: 'Look again.' };
    let answer: (response: Response) => void = () => undefined;
    const overview = new Promise<Response>((resolve) => (answer = resolve));
    mockApi({ 'GET user': currentUserHandler(user), 'GET registration': () => overview });
    renderApp('/clearing/home');
    expect(await screen.findByRole('heading', { name: 'Welcome Avery!' })).toBeInTheDocument();
    expect(screen.getByText('Loading the changes we asked for…')).toBeInTheDocument();
    expect(screen.queryByText('Your application needs changes')).not.toBeInTheDocument();
    expect(screen.queryByText(/need these changes/)).not.toBeInTheDocument();
    answer(
      json(200, {
        registration: {
          registrationId: 'reg-1',
          formId: 'business',
          status: 'changes_requested',
          history: [],
          changeRequest: {
            note: 'Look again.',
            fields: [{ path: '/bizName', prompt: 'Business Name', note: 'As registered' }],
          },
        },
      }),
    );
    // The banner arrives whole: its title, its list and its button in the same render.
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Your application needs changes');
    expect(within(banner).getByRole('list', { name: 'Requested changes' })).toHaveTextContent(
      'Business Name',
    );
    expect(within(banner).getByRole('link', { name: 'Make the changes' })).toHaveAttribute(
      'href',
      '/clearing/registration/business/changes',
    );
    expect(screen.queryByText('Loading the changes we asked for…')).not.toBeInTheDocument();
  });

  it('says so when the requested changes cannot be loaded, never a banner without them', async () => {
    const user = pendingUser();
    user.review = { status: 'changes_requested', reason: null };
    mockApi({
      'GET user': currentUserHandler(user),
      'GET registration': () => json(503, { errorMessage: 'The service is busy.' }),
    });
    renderApp('/clearing/home');
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('The changes we asked for could not be loaded.');
    expect(screen.queryByText('Your application needs changes')).not.toBeInTheDocument();
  });

  it('tells a rejected applicant it was not accepted, with the reason and the support contact', async () => {
    const user = pendingUser();
    const reason = 'We cannot verify your identity from the documents provided.';
    user.review = { status: 'rejected', reason };
    mockApi({ 'GET user': currentUserHandler(user) });
    renderApp('/clearing/home');
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Your application was not accepted');
    expect(banner).toHaveTextContent(`Reason: ${reason}`);
    expect(banner).toHaveTextContent(firm.supportEmail);
    expect(banner).toHaveTextContent(firm.supportPhone);
    expect(screen.queryByText(/application has been received/)).not.toBeInTheDocument();
    expect(screen.queryByText('Your application has been approved.')).not.toBeInTheDocument();
  });

  it('shows the received banner for a submitted application', async () => {
    const user = pendingUser();
    user.review = { status: 'submitted', reason: null };
    mockApi({ 'GET user': currentUserHandler(user) });
    renderApp('/clearing/home');
    expect(await screen.findByText(/application has been received/)).toBeInTheDocument();
  });

  it('tells an approved customer without a statement (404) that the application is approved', async () => {
    const fetchMock = mockApi({
      'GET user': currentUserHandler(makeUser()),
      [STATEMENT_CALL]: NO_STATEMENT,
    });
    renderApp('/clearing/home');
    expect(await screen.findByText('Your application has been approved.')).toBeInTheDocument();
    expect(sentBodies(fetchMock, STATEMENT_CALL)).toHaveLength(1);
    expect(screen.queryByText(/application has been received/)).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Open Positions' })).not.toBeInTheDocument();
  });

  it('shows an approved customer with a statement the statement instead of a banner', async () => {
    mockApi({
      'GET user': currentUserHandler(makeUser()),
      [STATEMENT_CALL]: () => json(200, statementFixture()),
    });
    renderApp('/clearing/home');
    expect(await screen.findByRole('heading', { name: 'Stone Capital LLC' })).toBeInTheDocument();
    expect(
      screen.getByRole('article', { name: 'Customer statement Stone Capital LLC' }),
    ).toBeVisible();
    expect(screen.queryByText('Your application has been approved.')).not.toBeInTheDocument();
    expect(screen.queryByText(/application has been received/)).not.toBeInTheDocument();
    // The live panel sits below the statement.
    expect(screen.getByRole('heading', { name: 'Live market' })).toBeInTheDocument();
  });

  it('skips the fetch when the user has no organization id (approved banner)', async () => {
    const fetchMock = mockApi({
      'GET user': currentUserHandler(makeUser({ organizationId: null })),
      'GET customer/null/statement': () => json(200, statementFixture()),
      'GET customer/undefined/statement': () => json(200, statementFixture()),
    });
    renderApp('/clearing/home');
    expect(await screen.findByText('Your application has been approved.')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statementCalls(fetchMock)).toHaveLength(0);
    expect(screen.queryByText('Loading your statement…')).not.toBeInTheDocument();
  });

  it('shows the server message when the statement cannot be loaded', async () => {
    mockApi({
      'GET user': currentUserHandler(makeUser()),
      [STATEMENT_CALL]: () => json(500, { errorMessage: 'Statements are being rebuilt.' }),
    });
    renderApp('/clearing/home');
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Your statement could not be loaded. Statements are being rebuilt.',
      ),
    );
  });
});
