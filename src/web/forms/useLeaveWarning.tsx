import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router-dom';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

/**
 * Warns before leaving a form that holds answers a draft cannot keep (uploads, signatures, SSNs,
 * dates of birth): closing or reloading the tab asks the browser's question; a link inside the
 * portal (the header, Back, Sign out) asks ours. Returns the dialog to render.
 */
export function useLeaveWarning(wouldLose: () => boolean) {
  const check = useRef(wouldLose);
  useEffect(() => {
    check.current = wouldLose;
  });
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!check.current()) return;
      event.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname && check.current(),
  );
  const open = blocker.state === 'blocked';
  return (
    <Dialog open={open} aria-labelledby="leave-form-title" aria-describedby="leave-form-text">
      <DialogTitle id="leave-form-title">Leave this page?</DialogTitle>
      <DialogContent>
        <DialogContentText id="leave-form-text">
          For your security, uploaded documents, signatures, social security numbers and dates of
          birth are never saved on this device. If you leave now you will have to give them again.
        </DialogContentText>
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
