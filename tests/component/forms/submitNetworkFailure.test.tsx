import { useState } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NETWORK_FAILURE_MESSAGE } from '../../../src/web/api/client';
import { submitRegistration } from '../../../src/web/api/submit-registration';
import { SchemaForm } from '../../../src/web/forms/SchemaForm';
import { FormSession } from '../../../src/web/forms/session';
import {
  RegistrationFailureAlert,
  useRegistrationSubmit,
} from '../../../src/web/pages/registration/useRegistrationSubmit';
import { json } from '../renderApp';
import { field } from './helpers';
import { exampleAnswers, exampleWithout, FILE_STARTS, form, title } from './testForm';

/**
 * The individual page's submit: the real hook, alert and API client (fetch stubbed at the
 * network's edge), the session holding the answers and files.
 */
function RegistrationLike() {
  const [session] = useState(
    () =>
      new FormSession({
        form,
        initial: exampleWithout('photoId', 'photoIdBack', 'irsFormW2'),
        // The form's questions and Submit on one page (its uiSchema now names a review step).
        onePage: true,
      }),
  );
  const { failure, submitted, onSubmit } = useRegistrationSubmit(form, (payload: FormData) =>
    submitRegistration('individual', payload),
  );
  return (
    <SchemaForm session={session} onSubmit={onSubmit}>
      {(status) => (
        <>
          <RegistrationFailureAlert
            failure={failure}
            onRetry={() => void session.submit(onSubmit)}
          />
          {submitted && <p>Registration Submitted</p>}
          <button type="submit">{status.submitting ? 'Submitting' : 'Submit Registration'}</button>
        </>
      )}
    </SchemaForm>
  );
}

const REGISTRATION = '/exchange/api/web/registration/individual';

/** fetch at the network's edge: the signed documents load; the submission answers `answers`. */
function network(answers: Array<() => Promise<Response>>) {
  const sent: FormData[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    if (url.startsWith('/assets/pdfs/')) {
      // The page's own Blob (jsdom's): FormData takes no other.
      return { ok: true, status: 200, blob: async () => new Blob([FILE_STARTS.pdf]) } as Response;
    }
    if (url === REGISTRATION && init.method === 'POST') {
      sent.push(init.body as FormData);
      const answer = answers.shift();
      if (answer) return answer();
    }
    return json(404, { errorMessage: 'Not found.' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return sent;
}

async function chooseFiles(user: ReturnType<typeof userEvent.setup>) {
  const png = (name: string) =>
    new File([FILE_STARTS.png, new Uint8Array(500)], name, { type: 'image/png' });
  await user.upload(field(title('photoId')), png('front.png'));
  await screen.findByText(/front\.png/);
  await user.upload(field(title('photoIdBack')), png('back.png'));
  await screen.findByText(/back\.png/);
  await user.upload(
    field(title('irsFormW2')),
    new File([FILE_STARTS.pdf, 'x'.repeat(500)], 'w2.pdf', { type: 'application/pdf' }),
  );
  await screen.findByText(/w2\.pdf/);
}

/** The Registration Failed alert. */
async function failureAlert(): Promise<HTMLElement> {
  const title = await screen.findByText('Registration Failed');
  return title.closest<HTMLElement>('[role="alert"]')!;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a submission that gets no answer (issue 18)', { timeout: 60_000 }, () => {
  it('shows Registration Failed with a retry, keeps every answer and file, and the retry sends them', async () => {
    const sent = network([
      () => Promise.reject(new TypeError('Failed to fetch')),
      async () => json(201, { registrationId: 'r1', user: {} }),
    ]);
    const user = userEvent.setup();
    render(<RegistrationLike />);
    await chooseFiles(user);
    await user.click(screen.getByRole('button', { name: 'Submit Registration' }));

    const alert = await failureAlert();
    expect(alert).toHaveTextContent(NETWORK_FAILURE_MESSAGE);
    expect(alert).toHaveTextContent('If this problem persists, please contact support');
    // Nothing lost: the typed answers, the chosen files; the button works again.
    expect(screen.getByDisplayValue(String(exampleAnswers().firstName))).toBeInTheDocument();
    expect(screen.getByText(/front\.png/)).toBeInTheDocument();
    expect(screen.getByText(/w2\.pdf/)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Submit Registration' })).toBeEnabled(),
    );

    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Registration Submitted')).toBeInTheDocument();
    expect(sent).toHaveLength(2);
    // The retry carried the same files as the first try.
    const photo = sent[1]!.get('photoId');
    expect(photo).toBeInstanceOf(File);
    expect((photo as File).name).toBe('front.png');
    expect(sent[1]!.get('irsFormW2')).toBeInstanceOf(File);
  });

  it('a refusal (4xx) shows its message and no retry: the answer must change first', async () => {
    network([async () => json(400, { errorMessage: 'The file for W-2 is not a readable PDF.' })]);
    const user = userEvent.setup();
    render(<RegistrationLike />);
    await chooseFiles(user);
    await user.click(screen.getByRole('button', { name: 'Submit Registration' }));
    const alert = await failureAlert();
    expect(alert).toHaveTextContent('The file for W-2 is not a readable PDF.');
    expect(within(alert).queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
