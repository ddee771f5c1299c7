import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Answers } from '../../../src/shared/forms/model/schemaTypes';
import { draftSafeAnswers } from '../../../src/shared/forms/walk/answers';
import { FormSession, type SessionPersistence } from '../../../src/web/forms/session';
import { testForm } from '../../forms';

/** The business wizard's session, on the engine's business form and its example answers. */
let form: ReturnType<typeof testForm>;
beforeAll(() => {
  form = testForm('business');
});

function memoryPersistence(kept?: Answers) {
  const store: { kept: Answers | undefined; saved: Answers[] } = { kept, saved: [] };
  const persistence: SessionPersistence = {
    load: () => store.kept,
    save: (answers) => store.saved.push(answers),
    flush: () => {},
    clear: vi.fn(() => {
      store.kept = undefined;
    }),
  };
  return { store, persistence };
}

function openSession(kept?: Answers) {
  const { store, persistence } = memoryPersistence(kept);
  const session = new FormSession({
    form,
    initial: { email: 'daniel@example.com' },
    persistence,
  });
  return { session, store, persistence };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const example = () => structuredClone(form.example) as Answers;
const userStepOnly = () => {
  const { firstName, lastName, phoneNumber, photoId } = example();
  return { email: 'daniel@example.com', firstName, lastName, phoneNumber, photoId };
};

describe('a form session with steps', () => {
  it('scopes validation to the current step: Next refuses an invalid step and shows only its errors', async () => {
    const { session } = openSession();
    session.focused();
    session.commit({ email: 'daniel@example.com', firstName: 'Daniel' });
    await settle();
    expect(session.stepErrors.get().map((e) => e.id)).toEqual([
      'root_lastName',
      'root_phoneNumber',
      'root_photoId',
    ]);
    // Untouched fields show nothing yet.
    expect(session.shownErrors.get() ?? {}).toEqual({});
    expect(session.next()).toBe(false);
    expect(session.stepIndex.get()).toBe(0);
    expect(Object.keys(session.shownErrors.get() ?? {}).sort()).toEqual([
      'lastName',
      'phoneNumber',
      'photoId',
    ]);
    expect(session.focusRequests.get()).toBe(1);
  });

  it('Next on a valid step clears touched flags and advances; Back returns with the answers', async () => {
    const { session } = openSession();
    session.focused();
    session.touch('root_bizName');
    session.commit(userStepOnly());
    await settle();
    expect(session.status.get().valid).toBe(true);
    expect(session.next()).toBe(true);
    expect(session.stepIndex.get()).toBe(1);
    expect(session.status.get().valid).toBe(false);
    // bizName was touched on step 1: the flag is gone, so its error does not show yet.
    expect(session.shownErrors.get() ?? {}).toEqual({});
    session.back();
    expect(session.stepIndex.get()).toBe(0);
    expect(session.answers().firstName).toBe('Daniel');
  });

  it('lists every error of the whole form on the review step', async () => {
    const { session } = openSession();
    session.commit(userStepOnly());
    await settle();
    session.goTo(2);
    const ids = session.stepErrors.get().map((e) => e.id);
    expect(ids).toContain('root_bizName');
    expect(ids).not.toContain('root_firstName');
    expect(session.status.get().valid).toBe(false);
  });

  it('submits valid answers with the chosen files, then forgets the draft', async () => {
    const { session, persistence } = openSession();
    session.focused();
    session.commit(example());
    await settle();
    const file = new File(['%PDF-1.4'], 'w9.pdf', { type: 'application/pdf' });
    session.engine.files.set('/w8orw9', file);
    const send = vi.fn(async () => {});
    expect(await session.submit(send)).toBe(true);
    expect(send).toHaveBeenCalledTimes(1);
    const [answers, files] = send.mock.calls[0] as unknown as [Answers, Record<string, File>];
    expect(answers.bizName).toBe('Granite Ridge Mining Co.');
    expect(files['/w8orw9']).toBe(file);
    expect(persistence.clear).toHaveBeenCalled();
  });

  it('keeps everything when sending fails, and refuses invalid answers without sending', async () => {
    const { session, persistence } = openSession();
    session.commit({ ...example(), bizName: '' });
    await settle();
    const send = vi.fn(async () => {});
    expect(await session.submit(send)).toBe(false);
    expect(send).not.toHaveBeenCalled();
    session.commit(example());
    await settle();
    expect(await session.submit(() => Promise.reject(new Error('offline')))).toBe(false);
    expect(persistence.clear).not.toHaveBeenCalled();
    expect(session.status.get().submitting).toBe(false);
  });

  it('Reset Form forgets the draft, the files and the answers but keeps prefilled ones', async () => {
    const { session, persistence } = openSession({ firstName: 'Daniel' });
    expect(session.restored).toBe(true);
    expect(session.answers()).toEqual({ firstName: 'Daniel', email: 'daniel@example.com' });
    session.engine.files.set('/photoId', new File(['x'], 'id.png'));
    session.goTo(1);
    session.reset();
    expect(persistence.clear).toHaveBeenCalled();
    expect(session.answers()).toEqual({ email: 'daniel@example.com' });
    expect(session.engine.files.get('/photoId')).toBeUndefined();
    expect(session.stepIndex.get()).toBe(0);
    expect(session.generation.get()).toBe(1);
  });

  it('opens at the step the page names without saving (the changes page), and a move still saves', async () => {
    const { store, persistence } = memoryPersistence({ firstName: 'Daniel' });
    const session = new FormSession({
      form,
      initial: { email: 'daniel@example.com' },
      persistence,
      openAt: 1,
    });
    await settle();
    expect(session.stepIndex.get()).toBe(1);
    expect(store.saved).toEqual([]);
    session.goTo(0);
    expect(store.saved).toHaveLength(1);
  });

  it('saves a draft only after the user interacted, and knows when leaving would lose answers', async () => {
    const { session, store } = openSession();
    session.commit({ email: 'daniel@example.com' });
    await settle();
    expect(store.saved).toHaveLength(0);
    const keep = (answers: Answers) => {
      const { photoId: _photo, ...rest } = answers;
      return rest;
    };
    session.focused();
    session.commit({ email: 'daniel@example.com', firstName: 'Daniel' });
    await settle();
    expect(store.saved).toHaveLength(1);
    expect(session.holdsUnkeptAnswers(keep)).toBe(false);
    session.commit({
      ...session.answers(),
      photoId: { name: 'id.png', type: 'image/png', size: 3 },
    });
    await settle();
    expect(session.holdsUnkeptAnswers(keep)).toBe(true);
  });

  it('names what leaving would lose, and walks no answer when every one is kept (the server holds them all)', () => {
    // A 50-person application, reopened: unchanged from the blank form means changed here.
    const { session } = openSession(example());
    expect(session.status.get().dirty).toBe(true);
    const forAnswers = vi.spyOn(session.engine.files, 'forAnswers');
    expect(session.unkeptAnswers((answers) => answers)).toEqual([]);
    expect(forAnswers).not.toHaveBeenCalled();
    // A draft's filter leaves the sensitive answers out: those are named.
    const lost = session.unkeptAnswers((answers) => draftSafeAnswers(form, answers));
    expect(lost.length).toBeGreaterThan(0);
    // A filter that keeps every answer in a copy loses nothing either.
    expect(session.unkeptAnswers((answers) => structuredClone(answers))).toEqual([]);
  });

  it('validates 400 ms after the last change when asked to (spec §4)', async () => {
    vi.useFakeTimers();
    try {
      const { persistence } = memoryPersistence();
      const session = new FormSession({
        form,
        persistence,
        validationDelayMs: 400,
      });
      session.commit(userStepOnly());
      await vi.advanceTimersByTimeAsync(399);
      expect(session.status.get().valid).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(session.status.get().valid).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
