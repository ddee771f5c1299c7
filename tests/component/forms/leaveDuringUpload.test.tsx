/**
 * Issue 38 §2: leaving the page while a file is still uploading stops the upload, so the leave
 * warning arms (the browser's question on reload or close) and names the file, and disarms once
 * the upload ends.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { FormSession } from '../../../src/web/forms/session';
import { useLeaveWarning } from '../../../src/web/forms/useLeaveWarning';
import { testForm } from '../../forms';

const form = testForm('individual');
const w2Prompt = (form.schema.properties!.irsFormW2 as { title: string }).title;

function Page({ session }: { session: FormSession }) {
  // What the server holds is every answer: only an upload under way would be lost.
  const leaveWarning = useLeaveWarning(session, (answers) => answers);
  return (
    <>
      <Link to="/elsewhere">Elsewhere</Link>
      {leaveWarning}
    </>
  );
}

function renderPage() {
  const session = new FormSession({ form, initial: {} });
  function Holder() {
    const [held] = useState(session);
    return <Page session={held} />;
  }
  const router = createMemoryRouter(
    [
      { path: '/form', element: <Holder /> },
      { path: '/elsewhere', element: <p>Somewhere else</p> },
    ],
    { initialEntries: ['/form'] },
  );
  render(<RouterProvider router={router} />);
  return session;
}

/** Whether reloading or closing the tab now asks the browser's question. */
function reloadAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('leaving during an upload', () => {
  it('asks before a reload or a link while the file is sent, naming it; not once it arrived', async () => {
    const session = renderPage();
    expect(reloadAsks()).toBe(false);
    const file = new File(['%PDF-1.7'], 'w2.pdf', { type: 'application/pdf' });
    act(() => {
      session.engine.files.set('/irsFormW2', file);
      session.engine.uploads.set('/irsFormW2', { kind: 'uploading', sent: 10, total: 100 });
    });
    await waitFor(() => expect(reloadAsks()).toBe(true));
    await userEvent.setup().click(screen.getByRole('link', { name: 'Elsewhere' }));
    const leave = await screen.findByRole('dialog', { name: 'Leave this page?' });
    expect(leave).toHaveTextContent('These files are still uploading');
    expect(within(leave).getByRole('listitem')).toHaveTextContent(`${w2Prompt} (w2.pdf)`);
    expect(leave).not.toHaveTextContent('never saved on this device');
    // The upload arrives: nothing would be lost, the page may go.
    act(() => {
      session.engine.files.hold('/irsFormW2');
      session.engine.uploads.set('/irsFormW2', undefined);
    });
    await waitFor(() => expect(reloadAsks()).toBe(false));
    expect(await screen.findByText('Somewhere else')).toBeVisible();
  });
});
