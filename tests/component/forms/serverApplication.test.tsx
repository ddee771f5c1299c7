import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Application } from '../../../src/web/api/applications';
import { SESSION_EXPIRED_MESSAGE } from '../../../src/web/api/client';
import { sessionRenewal } from '../../../src/web/app/sessionExpiry';
import { SaveStatus } from '../../../src/web/forms/SaveStatus';
import {
  mergeAnswers,
  SAVE_NOW_WAIT_MS,
  ServerApplication,
} from '../../../src/web/forms/serverApplication';
import { fillUnkept } from '../../../src/web/forms/unsentChanges';
import { draftSafeAnswers } from '../../../src/shared/forms/walk/answers';
import { testForm } from '../../forms';
import { json } from '../renderApp';

/**
 * The session's persistence on the server: the real ServerApplication and API client, fetch
 * stubbed at the network's edge answering the applications contract (PUT applications/:formId).
 */
const SAVE = '/exchange/api/web/applications/individual';

interface Put {
  answers: Record<string, unknown>;
  baseRevision: number;
  step: number | null;
  keepalive: boolean | undefined;
}

/** The PUTs sent, each answered by the next of `answers` (200 with a new revision by default). */
function server(answers: Array<() => Promise<Response> | Response> = []) {
  const puts: Put[] = [];
  let revision = 1;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    if (String(input) === SAVE && init.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as Omit<Put, 'keepalive'>;
      puts.push({ ...body, keepalive: init.keepalive });
      const answer = answers.shift();
      if (answer) return answer();
      revision = body.baseRevision + 1;
      return json(200, { revision, savedAt: '2026-11-25T14:02:00.000Z' });
    }
    return json(404, { errorMessage: 'Not found.' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return puts;
}

function application(overrides: Partial<Application> = {}): Application {
  return {
    formId: 'individual',
    schemaHash: 'h1',
    revision: 3,
    savedAt: '2026-11-25T13:00:00.000Z',
    step: 0,
    status: 'draft',
    answers: { firstName: 'Jane', lastName: 'Sample' },
    files: {},
    changeRequest: null,
    carriedOver: null,
    ...overrides,
  };
}

function saver(app: Application | null = null) {
  return new ServerApplication({
    formId: 'individual',
    application: app,
    // what a browser draft keeps: here, no SSN
    draftFilter: ({ socialSecurityNumber: _ssn, ...rest }) => rest,
  });
}

/** Lets fetch's promises and the saver's follow-ups settle (timers are fake). */
async function settle() {
  await act(async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  });
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  localStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('saving the application on the server', () => {
  it('saves about a second after the last change, once, with the last answers', async () => {
    const puts = server();
    const store = saver();
    store.save({ firstName: 'J' }, { step: 0 });
    await vi.advanceTimersByTimeAsync(600);
    store.save({ firstName: 'Ja' }, { step: 0 });
    await vi.advanceTimersByTimeAsync(600);
    store.save({ firstName: 'Jane', socialSecurityNumber: '123-45-6789' }, { step: 0 });
    await vi.advanceTimersByTimeAsync(900);
    expect(puts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(200);
    await settle();
    expect(puts).toHaveLength(1);
    // The server keeps every answer (the SSN too); the first save creates the row.
    expect(puts[0]).toMatchObject({
      answers: { firstName: 'Jane', socialSecurityNumber: '123-45-6789' },
      baseRevision: 0,
      step: 0,
    });
    expect(store.state.get()).toMatchObject({ kind: 'saved' });
    // The browser draft (offline fallback) never holds the SSN.
    const draft = localStorage.getItem('clearing.draft.individual');
    expect(JSON.parse(draft!)).toEqual({ firstName: 'Jane' });
  });

  it('a step change (flush) saves at once, from the revision it opened at', async () => {
    const puts = server();
    const store = saver(application());
    store.save({ firstName: 'Jane', lastName: 'Doe' }, { step: 1 });
    store.flush();
    await settle();
    expect(puts).toEqual([
      {
        answers: { firstName: 'Jane', lastName: 'Doe' },
        baseRevision: 3,
        step: 1,
        keepalive: undefined,
      },
    ]);
  });

  it('the page going away sends the pending save with keepalive', async () => {
    const puts = server();
    const store = saver(application());
    store.save({ firstName: 'Jane', lastName: 'Doe' }, { step: 0 });
    store.flushOnPageHide();
    await settle();
    expect(puts).toHaveLength(1);
    expect(puts[0]!.keepalive).toBe(true);
  });

  it('a page shown again from the back/forward cache sends again the change its keepalive save carried', async () => {
    const puts = server();
    const store = saver(application());
    store.save({ firstName: 'Jane', lastName: 'Doe' }, { step: 2 });
    store.flushOnPageHide();
    await settle();
    expect(puts).toHaveLength(1);
    // The keepalive's answer never reaches the page: the change is not known to be saved.
    expect(store.holdsEverything()).toBe(false);
    // The page was kept, not ended: its frozen timers run again once it is shown.
    await vi.advanceTimersByTimeAsync(1000);
    await settle();
    expect(puts).toHaveLength(2);
    expect(puts[1]).toMatchObject({ step: 2, keepalive: undefined });
    expect(puts[1]!.answers).toEqual({ firstName: 'Jane', lastName: 'Doe' });
    expect(store.holdsEverything()).toBe(true);
  });

  it('says "Not saved — retrying" while saves fail, waits longer each time, and loses nothing', async () => {
    const failing = () => Promise.reject(new TypeError('Failed to fetch'));
    const puts = server([failing, failing, () => json(503, { errorMessage: 'Try later.' })]);
    const store = saver();
    render(<SaveStatus saver={store} />);
    store.save({ firstName: 'Jane' }, { step: 0 });
    await vi.advanceTimersByTimeAsync(1000);
    await settle();
    expect(puts).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent('Not saved — retrying');
    // 1 s, then 2 s, then 4 s between tries.
    await vi.advanceTimersByTimeAsync(999);
    expect(puts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(puts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(puts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(puts).toHaveLength(3);
    expect(screen.getByRole('status')).toHaveTextContent('Not saved — retrying');
    await vi.advanceTimersByTimeAsync(4000);
    await settle();
    expect(puts).toHaveLength(4);
    // Every try carried the answers; the last one was saved.
    expect(puts.every((put) => put.answers.firstName === 'Jane')).toBe(true);
    expect(screen.getByRole('status')).toHaveTextContent(/^Saved \d{1,2}:\d{2} (AM|PM)$/);
  });

  it('an expired sign-in is said in the status region, asks to sign in again, and the same save goes once signed in', async () => {
    const detach = sessionRenewal.attach(); // the app's sign-in dialog is mounted
    try {
      const puts = server([
        () => json(401, { errorMessage: 'Please sign in to view that content.' }),
      ]);
      const store = saver();
      render(<SaveStatus saver={store} />);
      store.save({ firstName: 'Jane' }, { step: 0 });
      await vi.advanceTimersByTimeAsync(1000);
      await settle();
      expect(screen.getByRole('status')).toHaveTextContent(SESSION_EXPIRED_MESSAGE);
      expect(sessionRenewal.requested()).toBe(true);
      // Nothing is sent again while the dialog waits, however long.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(puts).toHaveLength(1);
      act(() => sessionRenewal.renewed());
      await settle();
      expect(puts).toHaveLength(2);
      expect(puts[1]!.answers).toEqual({ firstName: 'Jane' });
      expect(screen.getByRole('status')).toHaveTextContent(/^Saved/);
    } finally {
      detach();
    }
  });

  it('a declined sign-in keeps the answers unsaved and says so; the next change asks again', async () => {
    const detach = sessionRenewal.attach();
    try {
      const puts = server([
        () => json(401, { errorMessage: 'Please sign in to view that content.' }),
        () => json(401, { errorMessage: 'Please sign in to view that content.' }),
      ]);
      const store = saver();
      render(<SaveStatus saver={store} />);
      store.save({ firstName: 'Jane' }, { step: 0 });
      await vi.advanceTimersByTimeAsync(1000);
      await settle();
      act(() => sessionRenewal.declined());
      await settle();
      // No retries behind the user's back (each would ask again).
      await vi.advanceTimersByTimeAsync(120_000);
      await settle();
      expect(puts).toHaveLength(1);
      expect(screen.getByRole('status')).toHaveTextContent(SESSION_EXPIRED_MESSAGE);
      expect(store.holdsEverything()).toBe(false);
      // The next change asks to sign in again, and saves every answer given meanwhile.
      store.save({ firstName: 'Jane', lastName: 'Sample' }, { step: 0 });
      await vi.advanceTimersByTimeAsync(1000);
      await settle();
      expect(sessionRenewal.requested()).toBe(true);
      act(() => sessionRenewal.renewed());
      await settle();
      expect(puts.at(-1)!.answers).toEqual({ firstName: 'Jane', lastName: 'Sample' });
      expect(screen.getByRole('status')).toHaveTextContent(/^Saved/);
    } finally {
      detach();
    }
  });

  it('leaving a step while the previous step change is still being saved stores the later step last', async () => {
    // Edit on the review, then Next at once: the save of "back to step 1" is still in flight
    // when the save of "on to the review" is asked for.
    let answerFirst!: () => void;
    const firstInFlight = new Promise<Response>((resolve) => {
      answerFirst = () => resolve(json(200, { revision: 4, savedAt: '2026-11-25T14:02:00.000Z' }));
    });
    const puts = server([() => firstInFlight]);
    const store = saver(application({ step: 2 }));
    store.save({ firstName: 'Jane', lastName: 'Sample' }, { step: 1 });
    store.flush();
    await settle();
    store.save({ firstName: 'Jane', lastName: 'Sample' }, { step: 2 });
    store.flush();
    // A link out of the page waits for both: leaving now would leave the server on step 1.
    expect(store.holdsEverything()).toBe(false);
    const left = store.saveBeforeLeaving();
    await settle();
    expect(puts.map((put) => put.step)).toEqual([1]); // one save at a time
    answerFirst();
    await settle();
    await expect(left).resolves.toBe(true);
    expect(puts.map(({ step, baseRevision }) => ({ step, baseRevision }))).toEqual([
      { step: 1, baseRevision: 3 },
      { step: 2, baseRevision: 4 },
    ]);
    expect(store.holdsEverything()).toBe(true);
  });

  it('Save and finish later (saveNow) resolves once saved, false when the save failed', async () => {
    server([() => Promise.reject(new TypeError('Failed to fetch'))]);
    const store = saver();
    const first = store.saveNow({ firstName: 'Jane' }, { step: 0 });
    await settle();
    await expect(first).resolves.toBe(false);
    const second = store.saveNow({ firstName: 'Jane' }, { step: 0 });
    await settle();
    await expect(second).resolves.toBe(true);
  });
});

describe('two windows saving the same application (409)', () => {
  it("merges per question: this page's changes win, the server's other answers are taken, saved again from the new revision", async () => {
    const theirs = application({
      revision: 4,
      answers: {
        firstName: 'Jane',
        lastName: 'Sample',
        primaryPhoneNumber: '+13125550142',
        mailingAddress: { line1: '1 Main St', locality: 'Chicago' },
      },
    });
    const puts = server([
      () =>
        json(409, {
          errorMessage: 'This application was changed in another window.',
          application: theirs,
        }),
    ]);
    const store = saver(
      application({
        answers: { firstName: 'Jane', lastName: 'Sample', mailingAddress: { line1: '1 Main St' } },
      }),
    );
    const shown: Record<string, unknown>[] = [];
    store.onMerged = (answers) => shown.push(answers);
    store.save(
      {
        firstName: 'Janet',
        lastName: 'Sample',
        mailingAddress: { line1: '2 Oak Ave' },
      },
      { step: 0 },
    );
    store.flush();
    await settle();
    expect(puts).toHaveLength(2);
    const merged = {
      firstName: 'Janet',
      lastName: 'Sample',
      primaryPhoneNumber: '+13125550142',
      mailingAddress: { line1: '2 Oak Ave', locality: 'Chicago' },
    };
    expect(puts[1]).toMatchObject({ baseRevision: 4, answers: merged });
    expect(shown).toEqual([merged]);
    expect(store.merged.get()).toBe(true);
    expect(store.state.get()).toMatchObject({ kind: 'saved' });
  });

  it('a conflict that changes nothing here (the same answers) is not announced', () => {
    const same = { firstName: 'Jane', photoId: { name: 'a.png', type: 'image/png', size: 3 } };
    expect(mergeAnswers({}, same, same)).toEqual({ merged: same, taken: [] });
  });

  it('an answer removed here stays removed; one removed there is removed here if untouched', () => {
    const { merged, taken } = mergeAnswers(
      { a: 1, b: 2 },
      { b: 2 }, // removed a
      { a: 1 }, // removed b
    );
    expect(merged).toEqual({});
    expect(taken).toEqual(['/b']);
  });
});

describe('opening on the application', () => {
  it('opens with its answers and step; file answers count only where the server holds the file', () => {
    server();
    const store = saver(
      application({
        step: 1,
        answers: {
          firstName: 'Jane',
          photoId: { name: 'front.png', type: 'image/png', size: 10 },
          irsFormW2: { name: 'w2.pdf', type: 'application/pdf', size: 10 },
        },
        files: { '/irsFormW2': { name: 'w2.pdf', type: 'application/pdf', size: 10 } },
      }),
    );
    expect(store.load()).toEqual({
      firstName: 'Jane',
      irsFormW2: { name: 'w2.pdf', type: 'application/pdf', size: 10 },
    });
    expect(store.loadStep()).toBe(1);
    expect(store.heldFiles()).toEqual(['/irsFormW2']);
    expect(store.restoredFrom).toBe('server');
  });

  it("without an application on the server, this device's draft is the fallback", () => {
    localStorage.setItem('clearing.draft.individual', JSON.stringify({ firstName: 'Jane' }));
    server();
    const store = saver(null);
    expect(store.load()).toEqual({ firstName: 'Jane' });
    expect(store.restoredFrom).toBe('device');
  });
});

/** Issue 38 §2: changes typed while the server cannot be reached survive a reload. */
describe('changes the server did not get, kept in the browser', () => {
  const UNSENT = 'clearing.draft.individual.unsent';
  const unsent = () => JSON.parse(localStorage.getItem(UNSENT) ?? 'null') as unknown;
  const offline = () => Promise.reject(new TypeError('Failed to fetch'));

  it('are kept with the revision they were made from, without the SSN, and forgotten once the server holds them', async () => {
    const puts = server([offline]);
    const store = saver(application());
    store.save(
      { firstName: 'Janet', lastName: 'Sample', socialSecurityNumber: '123-45-6789' },
      { step: 1 },
    );
    await vi.advanceTimersByTimeAsync(1000);
    await settle();
    expect(puts).toHaveLength(1);
    expect(unsent()).toEqual({
      revision: 3,
      base: { firstName: 'Jane', lastName: 'Sample' },
      answers: { firstName: 'Janet', lastName: 'Sample' },
      step: 1,
    });
    // The next try reaches the server: nothing unsent is kept any more.
    await vi.advanceTimersByTimeAsync(1000);
    await settle();
    expect(puts).toHaveLength(2);
    expect(unsent()).toBeNull();
  });

  it('a page reloaded on the same revision opens them over the server’s application, its SSN and held files kept, and sends them', async () => {
    localStorage.setItem(
      UNSENT,
      JSON.stringify({
        revision: 3,
        base: { firstName: 'Jane', lastName: 'Sample' },
        answers: { firstName: 'Janet', lastName: 'Sample', employerName: 'Acme' },
        step: 1,
      }),
    );
    const puts = server();
    const store = saver(
      application({
        answers: { firstName: 'Jane', lastName: 'Sample', socialSecurityNumber: '123-45-6789' },
      }),
    );
    const opened = {
      firstName: 'Janet',
      lastName: 'Sample',
      employerName: 'Acme',
      socialSecurityNumber: '123-45-6789',
    };
    expect(store.load()).toEqual(opened);
    expect(store.restoredUnsent).toEqual({ taken: [] });
    expect(store.holdsEverything()).toBe(false);
    store.resume();
    await settle();
    expect(puts).toEqual([{ answers: opened, baseRevision: 3, step: 1, keepalive: undefined }]);
    expect(unsent()).toBeNull();
    expect(store.holdsEverything()).toBe(true);
  });

  it('the server moved on since (another window saved): merged per question, the answers taken from there named', () => {
    localStorage.setItem(
      UNSENT,
      JSON.stringify({
        revision: 3,
        base: { firstName: 'Jane', lastName: 'Sample' },
        answers: { firstName: 'Janet', lastName: 'Sample' },
        step: 0,
      }),
    );
    server();
    const store = saver(
      application({
        revision: 5,
        answers: { firstName: 'Jane', lastName: 'Smith', socialSecurityNumber: '123-45-6789' },
      }),
    );
    expect(store.load()).toEqual({
      firstName: 'Janet',
      lastName: 'Smith',
      socialSecurityNumber: '123-45-6789',
    });
    expect(store.restoredUnsent).toEqual({ taken: ['/lastName'] });
  });

  it('nothing left to send (the save on leaving landed): opens on the server’s answers and forgets the record', () => {
    localStorage.setItem(
      UNSENT,
      JSON.stringify({
        revision: 3,
        base: { firstName: 'Jane' },
        answers: { firstName: 'Jane', lastName: 'Sample' },
        step: 0,
      }),
    );
    server();
    const store = saver(application({ revision: 4 }));
    expect(store.load()).toEqual({ firstName: 'Jane', lastName: 'Sample' });
    expect(store.restoredUnsent).toBeUndefined();
    expect(unsent()).toBeNull();
  });

  it('opened on this device’s draft (the server unreachable), the first 409 takes the SSN back from the server’s copy, without calling it another window’s change', async () => {
    localStorage.setItem('clearing.draft.individual', JSON.stringify({ firstName: 'Janet' }));
    localStorage.setItem(
      UNSENT,
      JSON.stringify({
        revision: 3,
        base: { firstName: 'Jane' },
        answers: { firstName: 'Janet' },
        step: 0,
      }),
    );
    const theirs = application({
      answers: { firstName: 'Jane', socialSecurityNumber: '123-45-6789' },
    });
    const puts = server([
      () => json(409, { errorMessage: 'Changed elsewhere.', application: theirs }),
    ]);
    const store = saver(null);
    const shown: Record<string, unknown>[] = [];
    store.onMerged = (answers) => shown.push(answers);
    expect(store.load()).toEqual({ firstName: 'Janet' });
    store.resume();
    await settle();
    const merged = { firstName: 'Janet', socialSecurityNumber: '123-45-6789' };
    expect(puts.map((put) => put.answers)).toEqual([{ firstName: 'Janet' }, merged]);
    expect(shown).toEqual([merged]);
    expect(store.merged.get()).toBe(false);
  });

  it('Reset Form while the server cannot be reached: after a reload nothing of the server’s comes back (no SSN), and the reset goes', async () => {
    const held = application({
      answers: { firstName: 'Jane', socialSecurityNumber: '123-45-6789' },
    });
    const puts = server([offline]);
    const store = saver(held);
    store.clear();
    await settle();
    expect(puts.map((put) => put.answers)).toEqual([{}]);
    expect(unsent()).toEqual({
      revision: 3,
      base: { firstName: 'Jane' },
      answers: {},
      step: 0,
      reset: true,
    });

    // Reloaded while the server still holds the old application: it opens empty and resets it.
    const reloaded = saver(held);
    expect(reloaded.load()).toEqual({});
    expect(reloaded.holdsEverything()).toBe(false);
    reloaded.resume();
    await settle();
    expect(puts.slice(1)).toEqual([
      { answers: {}, baseRevision: 3, step: 0, keepalive: undefined },
    ]);
    expect(unsent()).toBeNull();
  });

  it('Reset Form met by another window’s save (409): the reset still wins whole, nothing taken back', async () => {
    const theirs = application({
      revision: 4,
      answers: { firstName: 'Jane', lastName: 'Smith', socialSecurityNumber: '123-45-6789' },
    });
    const puts = server([
      () => json(409, { errorMessage: 'Changed elsewhere.', application: theirs }),
    ]);
    const store = saver(application());
    store.clear();
    await settle();
    expect(puts.map((put) => [put.answers, put.baseRevision])).toEqual([
      [{}, 3],
      [{}, 4],
    ]);
  });

  it('the connection coming back sends a failed save at once, without waiting for its next try', async () => {
    const puts = server([offline, offline, offline]);
    const store = saver(application());
    store.save({ firstName: 'Janet' }, { step: 0 });
    for (const wait of [1000, 1000, 2000]) {
      await vi.advanceTimersByTimeAsync(wait);
      await settle();
    }
    expect(puts).toHaveLength(3); // the next try waits 4 s
    store.retryNow();
    await settle();
    expect(puts).toHaveLength(4);
    expect(store.state.get()).toMatchObject({ kind: 'saved' });
  });

  it('Save and finish later answers false once the server has not answered for a few seconds', async () => {
    server([() => new Promise<Response>(() => undefined)]);
    const store = saver(application());
    let answered: boolean | undefined;
    void store.saveNow({ firstName: 'Janet' }, { step: 0 }).then((saved) => (answered = saved));
    await vi.advanceTimersByTimeAsync(SAVE_NOW_WAIT_MS - 1);
    expect(answered).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answered).toBe(false);
    // The change is kept in the browser meanwhile.
    expect(unsent()).toMatchObject({ answers: { firstName: 'Janet' } });
  });
});

describe('inside a list (affiliated persons)', () => {
  const business = testForm('business');
  const keep = (answers: Record<string, unknown>) => draftSafeAnswers(business, answers);
  const person = (firstName: string, ssn: string) => ({ firstName, lastName: 'Okafor', ssn });

  it('a person edited here keeps the SSN the server holds; one matched by name after a removal too; an added one has none', () => {
    const server = {
      bizName: 'Granite',
      affiliatedPersons: [person('Amara', '111-11-1111'), person('Daniel', '222-22-2222')],
    };
    const serverSafe = keep(server);
    // The same two persons, the first renamed: matched by place.
    const renamed = keep({
      ...server,
      affiliatedPersons: [person('Amy', '111-11-1111'), person('Daniel', '222-22-2222')],
    });
    expect(fillUnkept(renamed, server, serverSafe)).toEqual({
      bizName: 'Granite',
      affiliatedPersons: [person('Amy', '111-11-1111'), person('Daniel', '222-22-2222')],
    });
    // Amara removed, a new person added: Daniel is found by his answers, the new one has no SSN.
    const changed = keep({
      ...server,
      affiliatedPersons: [person('Daniel', ''), { firstName: 'Lee', lastName: 'Okafor' }],
    });
    expect(fillUnkept(changed, server, serverSafe)).toEqual({
      bizName: 'Granite',
      affiliatedPersons: [
        person('Daniel', '222-22-2222'),
        { firstName: 'Lee', lastName: 'Okafor' },
      ],
    });
  });

  it('a person edited after another was removed keeps the SSN the server holds; a stranger takes none', () => {
    const full = (firstName: string, title: string, ssn: string) => ({
      ...person(firstName, ssn),
      title,
      addressLocality: 'Denver',
      ownershipPercent: 10,
    });
    const server = {
      affiliatedPersons: [
        full('Amara', 'CFO', '111-11-1111'),
        full('Daniel', 'CEO', '222-22-2222'),
      ],
    };
    const serverSafe = keep(server);
    // Amara removed and Daniel's title changed offline: neither his answers nor his place match.
    const edited = keep({ affiliatedPersons: [full('Daniel', 'President', '')] });
    expect(fillUnkept(edited, server, serverSafe)).toEqual({
      affiliatedPersons: [full('Daniel', 'President', '222-22-2222')],
    });
    // One who shares only a surname with those the server holds is nobody's: no SSN guessed.
    const stranger = keep({
      affiliatedPersons: [{ firstName: 'Lee', lastName: 'Okafor', title: 'COO' }],
    });
    expect(fillUnkept(stranger, server, serverSafe)).toEqual({
      affiliatedPersons: [{ firstName: 'Lee', lastName: 'Okafor', title: 'COO' }],
    });
  });
});

describe('files still uploading when the page was left', () => {
  it('are named after a reload unless the server holds them (those are forgotten)', async () => {
    sessionStorage.clear();
    sessionStorage.setItem(
      'clearing.draft.individual.uploads',
      JSON.stringify([
        { pointer: '/irsFormW2', name: 'w2.pdf' },
        { pointer: '/photoId', name: 'front.png' },
      ]),
    );
    server();
    const store = saver(
      application({
        files: { '/photoId': { name: 'front.png', type: 'image/png', size: 10 } },
        answers: { firstName: 'Jane', photoId: { name: 'front.png', type: 'image/png', size: 10 } },
      }),
    );
    expect(store.lostUploads).toEqual([{ pointer: '/irsFormW2', name: 'w2.pdf' }]);
    expect(JSON.parse(sessionStorage.getItem('clearing.draft.individual.uploads')!)).toEqual([
      { pointer: '/irsFormW2', name: 'w2.pdf' },
    ]);
  });
});
