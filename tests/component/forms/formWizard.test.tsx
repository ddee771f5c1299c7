/**
 * The registration page's engine (FormWizard) over a session, in a router: Reset Form asks
 * first naming what it clears (issue 19 §5), the leave warning names what would be lost and is
 * armed only while something would be (§8, §9), the sections' progress (issue 16 §5), focus on
 * the new step's heading and the step in the address (§4).
 */
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, useState } from 'react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router-dom';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { draftSafeAnswers } from '../../../src/shared/forms/walk/answers';
import { stepsOf } from '../../../src/shared/forms/model/steps';
import { FormWizard } from '../../../src/web/forms/FormWizard';
import { FormSession, type Answers, type SessionPersistence } from '../../../src/web/forms/session';
import { useLeaveWarning } from '../../../src/web/forms/useLeaveWarning';
import { testForm } from '../../forms';

let schema: RJSFSchema;
let uiSchema: UiSchema;
beforeAll(() => {
  const form = testForm('individual');
  schema = form.schema as RJSFSchema;
  uiSchema = form.uiSchema as UiSchema;
});
beforeEach(() => localStorage.clear());

const keep = (answers: Answers) => draftSafeAnswers(testForm('individual'), answers);
const prompt = (key: string) => (schema.properties![key] as { title: string }).title;

function Page({ onSession }: { onSession: (session: FormSession) => void }) {
  const [session] = useState(() => {
    const created = new FormSession({
      form: testForm('individual'),
      initial: { primaryEmailAddress: 'jane@example.com' },
    });
    onSession(created);
    return created;
  });
  const leaveWarning = useLeaveWarning(session, keep);
  return (
    <>
      <Link to="/elsewhere">Elsewhere</Link>
      <FormWizard session={session} onSubmit={vi.fn()} />
      {leaveWarning}
    </>
  );
}

function renderPage() {
  const found: { session?: FormSession } = {};
  const router = createMemoryRouter(
    [
      { path: '/form', element: <Page onSession={(s) => (found.session = s)} /> },
      { path: '/elsewhere', element: <p>Somewhere else</p> },
    ],
    { initialEntries: ['/form'] },
  );
  const user = userEvent.setup();
  render(<RouterProvider router={router} />);
  return { user, router, session: () => found.session! };
}

async function typeInto(user: ReturnType<typeof userEvent.setup>, id: string, text: string) {
  const input = await waitFor(() => {
    const element = document.getElementById(id);
    if (!element) throw new Error(`no #${id}`);
    return element;
  });
  await user.click(input);
  await user.paste(text);
  await user.tab();
}

describe('the registration page engine', { timeout: 120_000 }, () => {
  it('Reset Form asks first, naming what it clears; keeping the answers keeps them', async () => {
    const { user, session } = renderPage();
    await typeInto(user, 'root_firstName', 'Jane');
    await waitFor(() => expect(session().answers().firstName).toBe('Jane'));
    await user.click(screen.getByRole('button', { name: 'Reset Form' }));
    const ask = await screen.findByRole('dialog', { name: 'Reset the form?' });
    // Only what the user gave: not the prefilled email (Contact details), nor the address's
    // country the form starts with (Address).
    expect(
      within(ask)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Your answers in About you']);
    await user.click(within(ask).getByRole('button', { name: 'Keep my answers' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(session().answers().firstName).toBe('Jane');
    await user.click(screen.getByRole('button', { name: 'Reset Form' }));
    const again = await screen.findByRole('dialog', { name: 'Reset the form?' });
    await user.click(within(again).getByRole('button', { name: 'Reset Form' }));
    await waitFor(() => expect(session().answers().firstName).toBeUndefined());
    expect(session().answers().primaryEmailAddress).toBe('jane@example.com');
  });

  it('Reset Form asks when the only answer given is a name typed on the first step, or an edited prefilled answer (issue 26 §2)', async () => {
    const form = testForm('business');
    const made: FormSession[] = [];
    function Business() {
      const [session] = useState(() => {
        const created = new FormSession({
          form,
          initial: { email: 'daniel@example.com' },
        });
        made.push(created);
        return created;
      });
      return <FormWizard session={session} onSubmit={vi.fn()} />;
    }
    const router = createMemoryRouter([{ path: '/form', element: <Business /> }], {
      initialEntries: ['/form'],
    });
    const user = userEvent.setup();
    render(<RouterProvider router={router} />);
    const firstName = await waitFor(() => {
      const element = document.getElementById('root_firstName');
      if (!element) throw new Error('no first name');
      return element;
    });
    // Typed, and Reset pressed at once (no pause, no Tab).
    await user.click(firstName);
    await user.keyboard('Daniel');
    await user.click(screen.getByRole('button', { name: 'Reset Form' }));
    const ask = await screen.findByRole('dialog', { name: 'Reset the form?' });
    await user.click(within(ask).getByRole('button', { name: 'Reset Form' }));
    await waitFor(() => expect(made[0]!.answers().firstName).toBeUndefined());

    // A prefilled answer changed (read-only on screen; a widget or another window may write it).
    act(() => made[0]!.applyExternal({ ...made[0]!.answers(), email: 'other@example.com' }));
    await user.click(screen.getByRole('button', { name: 'Reset Form' }));
    expect(await screen.findByRole('dialog', { name: 'Reset the form?' })).toBeVisible();
  });

  it('leaving warns only about what a draft cannot keep, by name, and arms beforeunload only then', async () => {
    // The leave warning's own listener (named onBeforeUnload), added and not yet removed.
    const added = vi.spyOn(window, 'addEventListener');
    const removed = vi.spyOn(window, 'removeEventListener');
    const ours = (calls: unknown[][]) =>
      calls.filter(
        ([type, listener]) =>
          type === 'beforeunload' && (listener as { name?: string }).name === 'onBeforeUnload',
      ).length;
    const armed = () => ours(added.mock.calls) - ours(removed.mock.calls);
    const { user, router } = renderPage();
    await typeInto(user, 'root_firstName', 'Jane');
    expect(armed()).toBe(0);
    // A first name is kept by the draft: leaving loses nothing, nobody asks.
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await screen.findByText('Somewhere else');
    await act(() => router.navigate('/form'));
    await typeInto(user, 'root_socialSecurityNumber', '536221234');
    await waitFor(() => expect(armed()).toBe(1));
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const leave = await screen.findByRole('dialog', { name: 'Leave this page?' });
    expect(
      within(leave)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([prompt('socialSecurityNumber')]);
    expect(leave).not.toHaveTextContent(/documents|date of birth/i);
    // Escape stays, as Stay on this page does.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText('Somewhere else')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const again = await screen.findByRole('dialog', { name: 'Leave this page?' });
    await user.click(within(again).getByRole('button', { name: 'Stay on this page' }));
    expect(screen.queryByText('Somewhere else')).toBeNull();
    added.mockRestore();
    removed.mockRestore();
  });

  it('the sections beside the page count what each still needs', async () => {
    const { user } = renderPage();
    const progress = await screen.findByRole('navigation', { name: 'Sections' });
    const sections = stepsOf(uiSchema)![0]!.sections.map((section) => section.title);
    expect(
      within(progress)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(sections);
    const aboutYou = () => within(progress).getByText('About you').closest('li')!;
    await waitFor(() => expect(aboutYou()).toHaveTextContent('4 answers needed'));
    await typeInto(user, 'root_firstName', 'Jane');
    await waitFor(() => expect(aboutYou()).toHaveTextContent('3 answers needed'));
  });

  it('the first step stands where it settles on the first draw; a step change slides (issue 26 §4)', async () => {
    const { session } = renderPage();
    const heading = await screen.findByRole('heading', { name: 'Your details', level: 2 });
    // The step's box (Slide's child) is not moved in: nothing is drawn beside the card first.
    const sliding = (element: HTMLElement) => element.parentElement!.style.transition;
    expect(sliding(heading)).toBe('');
    // Moving on slides the next step in from the right (spec: a 500 ms slide).
    act(() => session().goTo(1));
    const review = await screen.findByRole('heading', { name: 'Review', level: 2 });
    expect(sliding(review)).toMatch(/transform 500ms/);
  });

  it('a step change focuses the new step heading and is an entry of the history', async () => {
    const { router, session } = renderPage();
    await screen.findByRole('heading', { name: 'Your details', level: 2 });
    // The example answers pass: the review can be reached.
    act(() => {
      session().commit({ ...(testForm('individual').example as Answers) });
    });
    await waitFor(() => expect(session().firstInvalidStepBefore(1)).toBeUndefined());
    act(() => {
      session().next();
    });
    const review = await screen.findByRole('heading', { name: 'Review', level: 2 });
    await waitFor(() => expect(review).toHaveFocus());
    expect(router.state.location.search).toBe('?step=review');
    await act(() => router.navigate(-1));
    await screen.findByRole('heading', { name: 'Your details', level: 2 });
    expect(session().stepIndex.get()).toBe(0);
    await act(() => router.navigate(1));
    await screen.findByRole('heading', { name: 'Review', level: 2 });
  });

  it('opens where the application was left when the address names no step, its effects run twice (StrictMode) included', async () => {
    // The application on the server, left on the review (the address from sign-in, the account
    // choice or "Save and finish later" names no step).
    const saves: Array<number | undefined> = [];
    const application: SessionPersistence = {
      restoredFrom: 'server',
      load: () => ({ ...(testForm('individual').example as Answers) }),
      loadStep: () => 1,
      save: (_answers, context) => saves.push(context?.step),
      flush: () => undefined,
      clear: () => undefined,
    };
    function Resumed() {
      const [session] = useState(
        () =>
          new FormSession({
            form: testForm('individual'),
            persistence: application,
          }),
      );
      return <FormWizard session={session} onSubmit={vi.fn()} />;
    }
    const router = createMemoryRouter([{ path: '/form', element: <Resumed /> }], {
      initialEntries: ['/form'],
    });
    // React runs every effect twice on mounting under StrictMode (refs kept), as it does when
    // it hides and shows a tree again: the step history must not take that for a new address.
    render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    );
    await screen.findByRole('heading', { name: 'Review', level: 2 });
    await waitFor(() => expect(router.state.location.search).toBe('?step=review'));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.getByRole('heading', { name: 'Review', level: 2 })).toBeVisible();
    expect(router.state.location.search).toBe('?step=review');
    // Nothing moved the application back to the first step.
    expect(saves).not.toContain(0);
  });

  it('writes the step an application reopens on in the address once the first draw is painted, not before (issue 29 §2)', async () => {
    const application: SessionPersistence = {
      restoredFrom: 'server',
      load: () => ({ ...(testForm('individual').example as Answers) }),
      loadStep: () => 1,
      save: () => undefined,
      flush: () => undefined,
      clear: () => undefined,
    };
    function Resumed() {
      const [session] = useState(
        () => new FormSession({ form: testForm('individual'), persistence: application }),
      );
      return <FormWizard session={session} onSubmit={vi.fn()} />;
    }
    const router = createMemoryRouter([{ path: '/form', element: <Resumed /> }], {
      initialEntries: ['/form'],
    });
    // Frames are held: the test paints them itself.
    const frames: FrameRequestCallback[] = [];
    const requestFrame = vi
      .spyOn(window, 'requestAnimationFrame')
      .mockImplementation((callback) => frames.push(callback));
    try {
      render(<RouterProvider router={router} />);
      await screen.findByRole('heading', { name: 'Review', level: 2 });
      // The effects have run and the router has had time to move: the address is as it was.
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      expect(router.state.location.search).toBe('');
    } finally {
      requestFrame.mockRestore();
    }
    act(() => {
      for (const frame of frames.splice(0)) frame(performance.now());
    });
    await waitFor(() => expect(router.state.location.search).toBe('?step=review'));
    expect(screen.getByRole('heading', { name: 'Review', level: 2 })).toBeVisible();
  });

  /** A session reopened on the review from kept answers (its review step draws no rjsf form). */
  function renderOnReview(answers: Answers, restoredFrom: 'server' | 'device' = 'server') {
    const application: SessionPersistence = {
      restoredFrom,
      load: () => answers,
      loadStep: () => 1,
      heldFiles: () => ['/photoId', '/photoIdBack', '/irsFormW2'],
      save: () => undefined,
      flush: () => undefined,
      clear: () => undefined,
    };
    const onSubmit = vi.fn();
    function Resumed() {
      const [session] = useState(
        () =>
          new FormSession({
            form: testForm('individual'),
            initial: { primaryEmailAddress: 'jane@example.com' },
            persistence: application,
          }),
      );
      return <FormWizard session={session} onSubmit={onSubmit} />;
    }
    const router = createMemoryRouter([{ path: '/form', element: <Resumed /> }], {
      initialEntries: ['/form'],
    });
    render(<RouterProvider router={router} />);
    return { onSubmit, user: userEvent.setup() };
  }

  it('an application reopened on its review can be submitted at once: unchanged means unchanged from the blank form (issue 26 §1)', async () => {
    const complete = {
      ...(testForm('individual').example as Answers),
      primaryEmailAddress: 'jane@example.com',
    };
    for (const restoredFrom of ['server', 'device'] as const) {
      const { onSubmit, user } = renderOnReview(complete, restoredFrom);
      await screen.findByRole('heading', { name: 'Review', level: 2 });
      const submit = screen.getByRole('button', { name: 'Submit Registration' });
      expect(submit).toBeEnabled();
      await user.click(submit);
      await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
      cleanup();
    }
  });

  it('a grey Submit on the review says what it waits for, and leads to the first answer needed', async () => {
    const { firstName: _dropped, ...withoutFirstName } = testForm('individual').example as Answers;
    const { user } = renderOnReview({
      ...withoutFirstName,
      primaryEmailAddress: 'jane@example.com',
    });
    await screen.findByRole('heading', { name: 'Review', level: 2 });
    expect(screen.getByRole('button', { name: 'Submit Registration' })).toBeDisabled();
    const waiting = screen.getByRole('status');
    expect(waiting).toHaveTextContent('1 answer is still needed.');
    await user.click(within(waiting).getByRole('button', { name: 'Go to the first' }));
    await screen.findByRole('heading', { name: 'Your details', level: 2 });
    await waitFor(() => expect(document.getElementById('root_firstName')).toHaveFocus());
  });
});
