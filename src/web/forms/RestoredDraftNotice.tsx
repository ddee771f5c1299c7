import { useCallback, useState, useSyncExternalStore } from 'react';
import { format } from 'date-fns';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { answersDraftsCannotKeep } from '../../shared/forms/walk/answers';
import { stepFields } from '../../shared/forms/model/steps';
import type { Application } from '../api/applications';
import { fromPointer } from '../../shared/forms/model/pointer';
import { questionAt } from '../../shared/forms/walk/changeScope';
import type { FormSession } from './session';
import type { ServerApplication } from './serverApplication';
import type { UploadUnderWay } from './unsentChanges';

/**
 * When a session opened on a restored draft: says so once, on the step it opened at, and which
 * of that step's answers a draft never keeps (files, signatures, SSNs, dates of birth) are still
 * to be given again — each leaves the list once given, and nothing a later step asks is named
 * before the user gets there. Opened on the server's application, it says which changes made
 * here while the server could not be reached were laid over it and are being sent, and which
 * files did not arrive because the page was left during their upload. Dismissible; gone once
 * the user moves to another step.
 */
export function RestoredDraftNotice({
  session,
  saver,
}: {
  session: FormSession;
  /** The application on the server the page opened on (with what this browser kept). */
  saver?: ServerApplication;
}) {
  const [openedAt] = useState(() => session.stepIndex.get());
  const stepIndex = useSyncExternalStore(session.stepIndex.subscribe, session.stepIndex.get);
  const [dismissed, setDismissed] = useState(false);
  // Said once: leaving its step dismisses it for good.
  if (stepIndex !== openedAt && !dismissed) setDismissed(true);
  const lost = saver?.lostUploads ?? [];
  // Change mode has its own notice (what staff asked for); the answers are the submitted ones.
  if (session.changeMode || dismissed || stepIndex !== openedAt) return null;
  if (!session.restored && lost.length === 0) return null;
  const application = saver?.application;
  if (session.restoredFrom === 'server' && application) {
    const documents = lost.length > 0 ? 'with the documents that arrived' : 'with your documents';
    return (
      <Alert severity="info" sx={{ mb: 2 }} onClose={() => setDismissed(true)}>
        <AlertTitle>Your application was restored</AlertTitle>
        {`It was saved on our server on ${format(new Date(application.savedAt), 'MMMM d, yyyy, h:mm a')}, ${documents}, and opens where you left it. Check your answers before you continue.`}
        <UnsentRestored session={session} taken={saver.restoredUnsent?.taken} />
        <LostUploads session={session} lost={lost} />
        <CarriedOver changes={application.carriedOver} />
      </Alert>
    );
  }
  return (
    <Alert severity="info" sx={{ mb: 2 }} onClose={() => setDismissed(true)}>
      <AlertTitle>
        {session.restored ? 'Your saved answers were restored' : 'An upload did not finish'}
      </AlertTitle>
      {session.restored ? <MissingFromDraft session={session} stepIndex={openedAt} /> : null}
      <LostUploads session={session} lost={lost} />
    </Alert>
  );
}

/**
 * Changes made here that the server did not get (the connection was lost, then the page
 * reloaded): restored over its application and sent now; the answers it took from a change
 * made elsewhere meanwhile are named.
 */
function UnsentRestored({ session, taken }: { session: FormSession; taken: string[] | undefined }) {
  if (!taken) return null;
  const prompts = [...new Set(taken.map((pointer) => promptOf(session, pointer)))];
  return (
    <>
      <p style={{ margin: '8px 0 0' }}>
        Changes you made while our server could not be reached were kept on this device and are
        restored here; they are being saved now (see the save status beside the buttons).
      </p>
      {prompts.length > 0 ? (
        <div style={{ marginTop: 4 }}>
          Your application was also changed elsewhere meanwhile; both sets of answers were kept.
          Taken from there:
          <ul style={{ margin: '2px 0 0', paddingLeft: 20 }}>
            {prompts.map((prompt) => (
              <li key={prompt}>{prompt}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

/** The files the page was left during the upload of: they never arrived and are to choose again. */
function LostUploads({ session, lost }: { session: FormSession; lost: readonly UploadUnderWay[] }) {
  if (lost.length === 0) return null;
  return (
    <div style={{ marginTop: 8 }}>
      The page was left while these files were uploading, so they did not arrive. Choose them again:
      <ul style={{ margin: '2px 0 0', paddingLeft: 20 }}>
        {lost.map(({ pointer, name }) => (
          <li key={pointer}>{`${promptOf(session, pointer)}: ${name}`}</li>
        ))}
      </ul>
    </div>
  );
}

const promptOf = (session: FormSession, pointer: string): string =>
  questionAt(session.form, session.answers(), pointer)?.prompt ?? fromPointer(pointer).at(-1) ?? '';

/**
 * What a device's draft could not keep and the step still asks for, kept current as answers are
 * given. Its own component, so the walk over every answer runs only under this notice, never
 * for an application restored from the server (a 50-person one spent about 60 ms in it on open).
 */
function MissingFromDraft({ session, stepIndex }: { session: FormSession; stepIndex: number }) {
  const stillMissing = useCallback(
    () => missingOnStep(session, stepIndex).join('\n'),
    [session, stepIndex],
  );
  const missing = useSyncExternalStore(session.engine.answers.subscribe, stillMissing);
  const prompts = missing ? missing.split('\n') : [];
  return (
    <>
      {prompts.length > 0 ? (
        <>
          For your security, these are never saved on this device and must be given again:
          <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
            {prompts.map((prompt) => (
              <li key={prompt}>{prompt}</li>
            ))}
          </ul>
        </>
      ) : (
        'Check them before you continue.'
      )}
    </>
  );
}

/**
 * The form changed since the answers were saved: which questions are new, which were reworded
 * and which earlier answers no longer apply, said once with the restored notice.
 */
function CarriedOver({ changes }: { changes: Application['carriedOver'] }) {
  if (!changes) return null;
  const lists: [string, string[]][] = [
    ['New questions:', changes.added],
    ['Questions worded differently now:', changes.reworded],
    ['Earlier answers that no longer apply and were removed:', changes.dropped],
  ];
  return (
    <>
      <p style={{ margin: '8px 0 0' }}>The form has changed since you saved it.</p>
      {lists
        .filter(([, prompts]) => prompts.length > 0)
        .map(([title, prompts]) => (
          <div key={title} style={{ marginTop: 4 }}>
            {title}
            <ul style={{ margin: '2px 0 0', paddingLeft: 20 }}>
              {prompts.map((prompt) => (
                <li key={prompt}>{prompt}</li>
              ))}
            </ul>
          </div>
        ))}
    </>
  );
}

/**
 * The prompts of the answers a draft cannot keep that the step asks (required, or sensitive and
 * once given) and that are not given yet.
 */
function missingOnStep(session: FormSession, stepIndex: number): string[] {
  const form = session.form;
  const answers = session.answers();
  const step = session.steps?.[stepIndex];
  const onStep = step ? new Set(stepFields(step)) : undefined;
  return answersDraftsCannotKeep(form, answers, { missingOnly: true })
    .filter(({ pointer }) => !onStep || onStep.has(fromPointer(pointer)[0] ?? ''))
    .map(({ prompt }) => prompt);
}
