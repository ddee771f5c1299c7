/**
 * "Your application is saved" names the address to come back to (issue 38 §4): it wraps after a
 * slash, never inside a word ('registr' / 'ation' at 390 px, under `word-break: break-all`).
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { SaveAndFinishLater } from '../../../src/web/forms/SaveStatus';
import { ServerApplication } from '../../../src/web/forms/serverApplication';
import { FormSession } from '../../../src/web/forms/session';
import { testForm } from '../../forms';
import { json } from '../renderApp';

afterEach(() => vi.unstubAllGlobals());

it('offers a line break after each slash of the address, and none inside a word', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => json(200, { revision: 4, savedAt: '2026-11-25T14:02:00.000Z' })),
  );
  const saver = new ServerApplication({
    formId: 'individual',
    application: {
      formId: 'individual',
      schemaHash: 'h1',
      revision: 3,
      savedAt: '2026-11-25T13:00:00.000Z',
      step: 0,
      status: 'draft',
      answers: { firstName: 'Jane' },
      files: {},
      changeRequest: null,
      carriedOver: null,
    },
    draftFilter: (answers) => answers,
  });
  window.history.replaceState(null, '', '/clearing/registration/individual');
  const session = new FormSession({ form: testForm('individual'), persistence: saver });
  render(<SaveAndFinishLater session={session} saver={saver} />);
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish later' }));
  });
  const dialog = await screen.findByRole('dialog', { name: 'Your application is saved' });
  const address = `${window.location.origin}/clearing/registration/individual`;
  expect(dialog).toHaveTextContent(address);
  const shown = [...dialog.querySelectorAll('span')].find((span) => span.textContent === address)!;
  // A break is offered after each slash ('http://' keeps both of its own), nowhere else.
  const before = [...shown.querySelectorAll('wbr')].map((wbr) => wbr.previousSibling?.textContent);
  expect(before).toEqual(['http://', `${window.location.host}/`, 'clearing/', 'registration/']);
  expect(getComputedStyle(shown).wordBreak).not.toBe('break-all');
});
