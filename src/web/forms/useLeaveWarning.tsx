import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useBlocker } from 'react-router-dom';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Answers, FormSession } from './session';

/**
 * Warns before leaving a form that holds answers a draft cannot keep (uploads, signatures, SSNs,
 * dates of birth), or while a file is still uploading (leaving stops it), naming them: closing
 * or reloading the tab asks the browser's question; a link inside the portal (the header, the
 * choice page, Sign out) asks ours. Moving between the steps of the same form is not leaving it.
 * The `beforeunload` listener is registered only while something would be lost: a page with one
 * cannot enter the browser's back/forward cache.
 * Where answers are saved elsewhere (the application on the server), a link first saves what is
 * pending: it leaves as soon as nothing would be lost, and asks only when that save fails (or
 * has not answered after a few seconds). Returns the dialog to render.
 */
export function useLeaveWarning(
  session: FormSession,
  kept: (answers: Answers) => Answers,
  /** Something else `kept` depends on (whether the server holds every answer yet). */
  keptChanges?: { subscribe: (listener: () => void) => () => void },
  /** Saves what is pending now; true once nothing would be lost. */
  saveBeforeLeaving?: () => Promise<boolean>,
) {
  const subscribe = useCallback(
    (listener: () => void) => {
      const stopAnswers = session.engine.answers.subscribe(listener);
      const stopStatus = session.status.subscribe(listener);
      const stopUploads = session.engine.uploads.subscribe(listener);
      const stopKept = keptChanges?.subscribe(listener);
      return () => {
        stopAnswers();
        stopStatus();
        stopUploads();
        stopKept?.();
      };
    },
    [session, keptChanges],
  );
  // Strings, so React compares snapshots by value.
  const uploadingText = useSyncExternalStore(subscribe, () => session.uploadsUnderWay().join('\n'));
  const uploading = uploadingText ? uploadingText.split('\n') : [];
  const lostText = useSyncExternalStore(subscribe, () => session.unkeptAnswers(kept).join('\n'));
  // A file still uploading is named once, with the uploads.
  const lost = (lostText ? lostText.split('\n') : []).filter((each) => !uploading.includes(each));
  const wouldLose = lost.length > 0 || uploading.length > 0;
  const latest = useRef(wouldLose);
  useEffect(() => {
    latest.current = wouldLose;
  });
  useEffect(() => {
    if (!wouldLose) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [wouldLose]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname && latest.current,
  );
  const blocked = blocker.state === 'blocked';
  // Whether to ask: at once without a save to try, else once the save failed or is slow.
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!blocked || !saveBeforeLeaving) return;
    let live = true;
    const slow = setTimeout(() => setAsking(true), LEAVE_SAVE_WAIT_MS);
    void saveBeforeLeaving().then((saved) => {
      if (live && !saved) setAsking(true);
    });
    return () => {
      live = false;
      clearTimeout(slow);
      setAsking(false);
    };
  }, [blocked, saveBeforeLeaving]);
  // Nothing would be lost any more (the save landed): leave, as asked.
  const proceed = blocker.proceed;
  useEffect(() => {
    if (blocked && !wouldLose) proceed?.();
  }, [blocked, wouldLose, proceed]);
  const open = blocked && wouldLose && (asking || !saveBeforeLeaving);
  return (
    <Dialog
      open={open}
      // Escape stays, as Stay on this page does; focus goes back to the link that asked to leave.
      onClose={() => blocker.reset?.()}
      aria-labelledby="leave-form-title"
      aria-describedby="leave-form-text"
    >
      <DialogTitle id="leave-form-title">Leave this page?</DialogTitle>
      <DialogContent id="leave-form-text">
        {uploading.length > 0 ? (
          <>
            <DialogContentText>
              These files are still uploading. If you leave now they will not arrive, and you will
              have to choose them again:
            </DialogContentText>
            <ul>
              {uploading.map((prompt) => (
                <li key={prompt}>{prompt}</li>
              ))}
            </ul>
          </>
        ) : null}
        {lost.length > 0 ? (
          <>
            <DialogContentText>
              For your security, these answers are never saved on this device. If you leave now you
              will have to give them again:
            </DialogContentText>
            <ul>
              {lost.map((prompt) => (
                <li key={prompt}>{prompt}</li>
              ))}
            </ul>
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => blocker.reset?.()}>Stay on this page</Button>
        <Button color="error" onClick={() => blocker.proceed?.()}>
          Leave
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** How long a link waits for the pending save before asking whether to leave without it. */
const LEAVE_SAVE_WAIT_MS = 3000;
