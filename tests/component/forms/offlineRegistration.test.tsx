/**
 * Issue 38 §2 on the registration page: answers typed while the server could not be reached
 * come back over the server's application after a reload and are sent; a file the page was left
 * during the upload of is named; Save and finish later says how it ended. The whole app at the
 * page's address (renderApp), fetch stubbed at the network's edge.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Application } from '../../../src/web/api/applications';
import { NETWORK_FAILURE_MESSAGE } from '../../../src/web/api/client';
import { SaveAndFinishLater } from '../../../src/web/forms/SaveStatus';
import { SAVE_NOW_WAIT_MS, ServerApplication } from '../../../src/web/forms/serverApplication';
import { FormSession } from '../../../src/web/forms/session';
import { lostUploadMessage } from '../../../src/web/forms/unsentChanges';
import { testForm } from '../../forms';
import {
  currentUserHandler,
  json,
  makeUser,
  mockApi,
  renderApp,
  sentBodies,
  unregisteredUser,
} from '../renderApp';

const UNSENT = 'clearing.draft.individual.unsent';
const UPLOADS = 'clearing.draft.individual.uploads';

function application(overrides: Partial<Application> = {}): Application {
  return {
    formId: 'individual',
    schemaHash: 'h1',
    revision: 3,
    savedAt: '2026-11-25T13:00:00.000Z',
    step: 0,
    status: 'draft',
    answers: { firstName: 'Jane', lastName: 'Sample', socialSecurityNumber: '123-45-6789' },
    files: {},
    changeRequest: null,
    carriedOver: null,
    ...overrides,
  };
}

function openPage(held: Application) {
  const fetchMock = mockApi({
    'GET user': currentUserHandler(unregisteredUser()),
    'GET config': () => new Response('{}'),
    'GET applications/individual': () => json(200, { application: held }),
    'PUT applications/individual': () =>
      json(200, { revision: held.revision + 1, savedAt: '2026-11-25T14:02:00.000Z' }),
  });
  renderApp('/clearing/registration/individual');
  return fetchMock;
}

/** The first draw of the lazy form page: slow under jsdom on a shared machine. */
const restoredNotice = () =>
  screen.findByText('Your application was restored', undefined, { timeout: 20_000 });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the registration page after a reload', { timeout: 40_000 }, () => {
  it('opens on the changes the server never got, over its application (its SSN kept), says so and sends them', async () => {
    localStorage.setItem(
      UNSENT,
      JSON.stringify({
        revision: 3,
        base: { firstName: 'Jane', lastName: 'Sample' },
        answers: { firstName: 'Janet', lastName: 'Sample' },
        step: 0,
      }),
    );
    const fetchMock = openPage(application());
    const notice = (await restoredNotice()).closest('[role="alert"]') as HTMLElement;
    expect(notice).toHaveTextContent(
      'Changes you made while our server could not be reached were kept on this device',
    );
    expect(document.getElementById('root_firstName')).toHaveValue('Janet');
    await waitFor(() =>
      expect(sentBodies(fetchMock, 'PUT applications/individual')).toHaveLength(1),
    );
    expect(sentBodies(fetchMock, 'PUT applications/individual')[0]).toMatchObject({
      baseRevision: 3,
      answers: { firstName: 'Janet', lastName: 'Sample', socialSecurityNumber: '123-45-6789' },
    });
    await waitFor(() => expect(localStorage.getItem(UNSENT)).toBeNull());
  });

  it('in change mode too: the changes page opens on the change the server never got and sends it', async () => {
    const example = testForm('individual').example as Record<string, unknown>;
    const safe = { ...example };
    delete safe.socialSecurityNumber;
    localStorage.setItem(
      UNSENT,
      JSON.stringify({
        revision: 3,
        base: safe,
        answers: { ...safe, lastName: 'Moreau-Smith' },
        step: 0,
      }),
    );
    const held = application({
      status: 'changes_requested',
      answers: example,
      changeRequest: {
        note: '',
        fields: [{ path: '/lastName', prompt: 'Last name', note: 'As on the passport.' }],
        submitted: example,
      },
    });
    const fetchMock = mockApi({
      'GET user': currentUserHandler(makeUser()),
      'GET config': () => new Response('{}'),
      'GET applications/individual': () => json(200, { application: held }),
      'PUT applications/individual': () =>
        json(200, { revision: 4, savedAt: '2026-11-25T14:02:00.000Z' }),
    });
    renderApp('/clearing/registration/individual/changes');
    expect(
      await screen.findByText('As on the passport.', undefined, { timeout: 20_000 }),
    ).toBeVisible();
    expect(document.getElementById('root_lastName')).toHaveValue('Moreau-Smith');
    await waitFor(() =>
      expect(sentBodies(fetchMock, 'PUT applications/individual')).toHaveLength(1),
    );
    expect(sentBodies(fetchMock, 'PUT applications/individual')[0]).toMatchObject({
      baseRevision: 3,
      answers: { lastName: 'Moreau-Smith', socialSecurityNumber: example.socialSecurityNumber },
    });
  });

  it('names the file that was still uploading when the page was left, in the notice and at its question', async () => {
    sessionStorage.setItem(UPLOADS, JSON.stringify([{ pointer: '/irsFormW2', name: 'w2.pdf' }]));
    openPage(application());
    const notice = (await restoredNotice()).closest('[role="alert"]') as HTMLElement;
    const prompt = testForm('individual').schema.properties!.irsFormW2 as { title: string };
    expect(notice).toHaveTextContent('with the documents that arrived');
    expect(notice).not.toHaveTextContent('with your documents');
    expect(within(notice).getByRole('listitem')).toHaveTextContent(`${prompt.title}: w2.pdf`);
    expect(await screen.findByText(lostUploadMessage('w2.pdf'))).toBeVisible();
  });
});

describe('Save and finish later says how it ended', () => {
  function renderButton(answer: () => Promise<Response>) {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) =>
        init.method === 'PUT' ? answer() : json(404, { errorMessage: 'Not found.' }),
      ),
    );
    const saver = new ServerApplication({
      formId: 'individual',
      application: application(),
      draftFilter: (answers) => answers,
    });
    const session = new FormSession({ form: testForm('individual'), persistence: saver });
    render(<SaveAndFinishLater session={session} saver={saver} />);
  }
  const press = async () => {
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save and finish later' }));
    });
  };

  it('the server unreachable: a dialog says it is not saved, why and what to do; Try again then saves', async () => {
    let reachable = false;
    renderButton(async () =>
      reachable
        ? json(200, { revision: 4, savedAt: '2026-11-25T14:02:00.000Z' })
        : Promise.reject(new TypeError('Failed to fetch')),
    );
    await press();
    const dialog = await screen.findByRole('dialog', { name: 'Your application is not saved yet' });
    expect(dialog).toHaveTextContent(NETWORK_FAILURE_MESSAGE);
    expect(dialog).toHaveTextContent('Check your internet connection');
    reachable = true;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('dialog', { name: 'Your application is saved' })).toBeVisible();
  });

  it('the server not answering: the same dialog after a few seconds, not silence', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    renderButton(() => new Promise<Response>(() => undefined));
    await press();
    await act(async () => vi.advanceTimersByTimeAsync(SAVE_NOW_WAIT_MS - 100));
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => vi.advanceTimersByTimeAsync(100));
    expect(
      screen.getByRole('dialog', { name: 'Your application is not saved yet' }),
    ).toHaveTextContent('Our server has not answered yet.');
  });
});
