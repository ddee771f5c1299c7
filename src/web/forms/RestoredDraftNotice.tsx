import { useCallback, useState, useSyncExternalStore } from 'react';
import { format } from 'date-fns';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { answersDraftsCannotKeep } from '../../shared/forms/walk/answers';
import { stepFields } from '../../shared/forms/model/steps';
import type { Application } from '../api/applications';
import { fromPointer } from '../../shared/forms/model/pointer';
import type { FormSession } from './session';

/**
 * When a session opened on a restored draft: says so once, on the step it opened at, and which
 * of that step's answers a draft never keeps (files, signatures, SSNs, dates of birth) are still
 * to be given again — each leaves the list once given, and nothing a later step asks is named
 * before the user gets there. Dismissible; gone once the user moves to another step.
 */
export function RestoredDraftNotice({
  session,
  application,
}: {
  session: FormSession;
  /** The application the server held, when the answers came from there. */
  application?: Application | null;
}) {
  const [openedAt] = useState(() => session.stepIndex.get());
  const stepIndex = useSyncExternalStore(session.stepIndex.subscribe, session.stepIndex.get);
  const [dismissed, setDismissed] = useState(false);
  // Said once: leaving its step dismisses it for good.
  if (stepIndex !== openedAt && !dismissed) setDismissed(true);
  // Change mode has its own notice (what staff asked for); the answers are the submitted ones.
  if (!session.restored || session.changeMode || dismissed || stepIndex !== openedAt) return null;
  if (session.restoredFrom === 'server' && application) {
    return (
      <Alert severity="info" sx={{ mb: 2 }} onClose={() => setDismissed(true)}>
        <AlertTitle>Your application was restored</AlertTitle>
        {`It was saved on our server on ${format(new Date(application.savedAt), 'MMMM d, yyyy, h:mm a')}, with your documents, and opens where you left it. Check your answers before you continue.`}
        <CarriedOver changes={application.carriedOver} />
      </Alert>
    );
  }
  return (
    <Alert severity="info" sx={{ mb: 2 }} onClose={() => setDismissed(true)}>
      <AlertTitle>Your saved answers were restored</AlertTitle>
      <MissingFromDraft session={session} stepIndex={openedAt} />
    </Alert>
  );
}

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
