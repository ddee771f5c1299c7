import { useState } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Application } from '../../../src/web/api/applications';
import { NETWORK_FAILURE_MESSAGE } from '../../../src/web/api/client';
import { submitRegistration } from '../../../src/web/api/submit-registration';
import { SchemaForm } from '../../../src/web/forms/SchemaForm';
import { ServerApplication } from '../../../src/web/forms/serverApplication';
import { FormSession } from '../../../src/web/forms/session';
import { useRegistrationSubmit } from '../../../src/web/pages/registration/useRegistrationSubmit';
import { json } from '../renderApp';
import { field } from './helpers';
import { exampleAnswers, exampleWithout, FILE_STARTS, form, FORM_ID, title } from './testForm';

/**
 * Files upload when chosen (issue 17): the real widget, session, ServerApplication and API
 * client; XMLHttpRequest (the upload, for its progress) and fetch stubbed at the network's edge.
 */
class FakeUpload {
  static sent: FakeUpload[] = [];
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  withCredentials = false;
  status = 0;
  responseText = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | undefined;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeUpload.sent.push(this);
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const REGISTRATION = '/exchange/api/web/registration/individual';

/** fetch: saves answer 200, the signed documents load, the submission is recorded. */
function network() {
  const submitted: FormData[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      if (url.startsWith('/assets/pdfs/')) {
        return { ok: true, status: 200, blob: async () => new Blob([FILE_STARTS.pdf]) } as Response;
      }
      if (url.endsWith('/applications/individual') && init.method === 'PUT') {
        return json(200, { revision: 9, savedAt: '2026-11-25T14:00:00.000Z' });
      }
      if (url === REGISTRATION && init.method === 'POST') {
        submitted.push(init.body as FormData);
        return json(201, { registrationId: 'r1', user: {} });
      }
      return json(404, { errorMessage: 'Not found.' });
    }),
  );
  return submitted;
}

function Registration({ application }: { application: Application | null }) {
  const [session] = useState(() => {
    const saver = new ServerApplication({
      formId: FORM_ID,
      application,
      draftFilter: (answers) => answers,
    });
    const session = new FormSession({
      form,
      initial: application ? {} : exampleWithout('photoId', 'photoIdBack', 'irsFormW2'),
      persistence: saver,
      onePage: true,
    });
    session.engine.uploader = saver.uploader();
    return session;
  });
  const { submitted, onSubmit } = useRegistrationSubmit(form, (payload: FormData) =>
    submitRegistration('individual', payload),
  );
  return (
    <SchemaForm session={session} onSubmit={onSubmit}>
      {submitted ? <p>Registration Submitted</p> : null}
      <button type="submit">Submit Registration</button>
    </SchemaForm>
  );
}

const pdf = (name: string) =>
  new File([FILE_STARTS.pdf, 'x'.repeat(491)], name, { type: 'application/pdf' });

beforeEach(() => {
  // An earlier test's page keeps its unsent answers a moment after it is gone (as leaving the
  // page does): a record written after that test's clean-up would be this test's start.
  localStorage.clear();
  sessionStorage.clear();
  FakeUpload.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('a file uploads when chosen', { timeout: 60_000 }, () => {
  it('shows a determinate progress bar, then the refusal as the field’s message, the file named to remove, every other answer kept', async () => {
    network();
    const user = userEvent.setup();
    render(<Registration application={null} />);
    await user.upload(field(title('irsFormW2')), pdf('w2.pdf'));
    const upload = await waitFor(() => {
      expect(FakeUpload.sent).toHaveLength(1);
      return FakeUpload.sent[0]!;
    });
    expect(upload.url).toBe('/exchange/api/web/applications/individual/files');
    // The pointer first, then the file.
    expect([...upload.body!.keys()]).toEqual(['pointer', 'file']);
    expect(upload.body!.get('pointer')).toBe('/irsFormW2');
    const bar = screen.getByRole('progressbar', { name: 'Uploading w2.pdf' });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    upload.progress(250, 500);
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    expect(screen.getByText('Uploading… 50%')).toBeInTheDocument();

    const refusal = 'The file for W-2 contains active content. Please upload a plain PDF.';
    upload.respond(400, { errorMessage: refusal, errors: { '/irsFormW2': refusal } });
    // The server's reason is the field's message (not "required"), and the button reads it.
    const choose = screen.getByRole('button', { name: /Replace file/ });
    await waitFor(() => expect(choose).toHaveAccessibleDescription(new RegExp(refusal)));
    // Shown once beside the field, and that message is the alert said at once (issue 26 §4: no
    // second copy of it in the field's block).
    const shown = screen.getAllByText(refusal);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.closest('[role="alert"]')).not.toBeNull();
    const block = choose.closest('.MuiFormControl-root')!;
    expect(block.textContent!.split(refusal)).toHaveLength(2);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText(/w2\.pdf/)).toBeInTheDocument();
    expect(screen.getByDisplayValue(String(exampleAnswers().firstName))).toBeInTheDocument();
    // It holds the form back until removed; then the field asks for a file again.
    await user.click(screen.getByRole('button', { name: 'Submit Registration' }));
    expect(screen.queryByText('Registration Submitted')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Remove w2.pdf' }));
    await waitFor(() => expect(screen.queryByText(refusal)).toBeNull());
  });

  it("a file the form's own rules refuse is not sent: the schema's message stands beside it", async () => {
    network();
    const user = userEvent.setup();
    render(<Registration application={null} />);
    const png = new File([FILE_STARTS.png, 'x'.repeat(100)], 'w2.pdf', {
      type: 'application/pdf',
    });
    await user.upload(field(title('irsFormW2')), png);
    const choose = screen.getByRole('button', { name: /Replace file/ });
    await waitFor(() => expect(choose).toHaveAccessibleDescription(/Must be a PDF document/));
    // Said once: the field's block holds the message once, and the button reads it once.
    expect(choose).toHaveAccessibleDescription(/^Must be a PDF document w2\.pdf \(/);
    const block = choose.closest('.MuiFormControl-root')!;
    expect(block.textContent!.split('Must be a PDF document')).toHaveLength(2);
    expect(FakeUpload.sent).toHaveLength(0);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove w2.pdf' })).toBeInTheDocument();
  });

  it('no answer at all keeps the file with Try again, which sends it again and holds it', async () => {
    network();
    const user = userEvent.setup();
    render(<Registration application={null} />);
    await user.upload(field(title('irsFormW2')), pdf('w2.pdf'));
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    FakeUpload.sent[0]!.onerror?.();
    expect(await screen.findByRole('alert')).toHaveTextContent(NETWORK_FAILURE_MESSAGE);
    expect(screen.getByText(/w2\.pdf/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(2));
    FakeUpload.sent[1]!.respond(200, {
      pointer: '/irsFormW2',
      name: 'w2.pdf',
      type: 'application/pdf',
      size: 500,
      revision: 2,
    });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText(/w2\.pdf/)).toBeInTheDocument();
  });

  it('a 413 ends in its message too (no bar left waiting)', async () => {
    network();
    const user = userEvent.setup();
    render(<Registration application={null} />);
    await user.upload(field(title('irsFormW2')), pdf('w2.pdf'));
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    FakeUpload.sent[0]!.respond(413, { errorMessage: 'The file for W-2 is too large.' });
    const choose = screen.getByRole('button', { name: /Replace file/ });
    await waitFor(() =>
      expect(choose).toHaveAccessibleDescription(/The file for W-2 is too large\./),
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});

describe('held files', { timeout: 60_000 }, () => {
  it('open as chosen, satisfy required, and the submission leaves their bytes out', async () => {
    const submitted = network();
    const answers = exampleAnswers();
    const files = Object.fromEntries(
      ['photoId', 'photoIdBack', 'irsFormW2'].map((key) => [
        `/${key}`,
        answers[key] as { name: string; type: string; size: number },
      ]),
    );
    const user = userEvent.setup();
    render(
      <Registration
        application={{
          formId: FORM_ID,
          schemaHash: form.hash,
          revision: 4,
          savedAt: '2026-11-25T13:00:00.000Z',
          step: 0,
          status: 'draft',
          answers,
          files,
          changeRequest: null,
          carriedOver: null,
        }}
      />,
    );
    const w2 = (answers.irsFormW2 as { name: string }).name;
    expect(screen.getByText(new RegExp(w2.replace('.', '\\.')))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit Registration' }));
    expect(await screen.findByText('Registration Submitted')).toBeInTheDocument();
    const payload = submitted[0]!;
    expect(payload.get('individualInfo')).toEqual(expect.any(String));
    for (const part of ['photoId', 'photoIdBack', 'irsFormW2'])
      expect(payload.get(part)).toBeNull();
    expect(FakeUpload.sent).toHaveLength(0);
  });
});
