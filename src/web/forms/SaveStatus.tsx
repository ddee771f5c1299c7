import { Fragment, useState, useSyncExternalStore } from 'react';
import { format } from 'date-fns';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { SESSION_EXPIRED_MESSAGE } from '../api/client';
import type { SaveState, ServerApplication } from './serverApplication';
import type { FormSession } from './session';

/** The words of a save state ('' when there is nothing to say yet). */
function saveStatusText(state: SaveState): string {
  switch (state.kind) {
    case 'saving':
      return 'Saving…';
    case 'saved':
      return `Saved ${format(state.at, 'h:mm a')}`;
    case 'retrying':
      return 'Not saved — retrying';
    case 'expired':
      return SESSION_EXPIRED_MESSAGE;
    default:
      return '';
  }
}

/**
 * The polite status region beside the form's buttons: "Saving…", "Saved 2:14 PM", "Not saved —
 * retrying" (with the reason), or that the sign-in expired. Always present, so each change is
 * announced.
 */
export function SaveStatus({ saver }: { saver: ServerApplication }) {
  const state = useSyncExternalStore(saver.state.subscribe, saver.state.get);
  const problem = state.kind === 'retrying' || state.kind === 'expired';
  return (
    <Typography
      role="status"
      variant="body2"
      color={problem ? 'error' : 'text.secondary'}
      title={state.kind === 'retrying' ? state.reason : undefined}
      sx={{ maxWidth: problem ? 320 : undefined, textAlign: 'right' }}
    >
      {saveStatusText(state)}
    </Typography>
  );
}

/** Why Save and finish later did not save, from the save state it ended in. */
function notSavedReason(state: SaveState): string {
  if (state.kind === 'retrying') return state.reason;
  if (state.kind === 'expired') return SESSION_EXPIRED_MESSAGE;
  return 'Our server has not answered yet.';
}

/**
 * Save and finish later: saves now, then says where to come back (this address; signing in on
 * any device opens the application where it was left). Signs nothing out. When the save fails,
 * or the server has not answered within a few seconds, a dialog says it is not saved, why, and
 * what to do (the answers stay and are saved once the server answers), with Try again.
 */
export function SaveAndFinishLater({
  session,
  saver,
  disabled,
}: {
  session: FormSession;
  saver: ServerApplication;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [notSaved, setNotSaved] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setNotSaved(null);
    setSaving(true);
    const saved = await saver.saveNow(session.answers(), { step: session.stepIndex.get() });
    setSaving(false);
    // Not saved: said at once (saving goes on by itself, and the status region follows it).
    if (saved) setOpen(true);
    else setNotSaved(notSavedReason(saver.state.get()));
  };
  const address = `${window.location.origin}${window.location.pathname}`;
  return (
    <>
      <Button
        type="button"
        variant="text"
        disabled={disabled || saving}
        onClick={() => void save()}
      >
        Save and finish later
      </Button>
      <Dialog
        open={notSaved !== null}
        onClose={() => setNotSaved(null)}
        aria-labelledby="not-saved-title"
        aria-describedby="not-saved-text"
      >
        <DialogTitle id="not-saved-title">Your application is not saved yet</DialogTitle>
        <DialogContent>
          <DialogContentText id="not-saved-text">
            {notSaved} Your answers stay on this page, and this device keeps them too (except
            documents, signatures and sensitive numbers such as your SSN); they are saved by
            themselves as soon as our server answers again. Check your internet connection, keep
            this page open, and try again in a moment.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setNotSaved(null)}>Keep working</Button>
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog's way on, as ARIA's dialog pattern asks */}
          <Button variant="contained" autoFocus onClick={() => void save()}>
            Try again
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        aria-labelledby="saved-for-later-title"
        aria-describedby="saved-for-later-text"
      >
        <DialogTitle id="saved-for-later-title">Your application is saved</DialogTitle>
        <DialogContent>
          <DialogContentText id="saved-for-later-text">
            Everything you have given so far is saved, documents included. To finish it, come back
            to{' '}
            <Box component="span" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              <BreakableAddress address={address} />
            </Box>
            . Signing in on any device opens your application where you left it.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a dialog's one action, as ARIA's dialog pattern asks */}
          <Button variant="contained" autoFocus onClick={() => setOpen(false)}>
            Keep working
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** Said once when a save met another window's changes and both were kept. */
export function MergedNotice({ saver }: { saver: ServerApplication }) {
  const merged = useSyncExternalStore(saver.merged.subscribe, saver.merged.get);
  const [dismissed, setDismissed] = useState(false);
  if (!merged || dismissed) return null;
  return (
    <Alert severity="info" sx={{ mb: 2 }} onClose={() => setDismissed(true)}>
      This application was also changed in another window; both sets of answers were kept.
    </Alert>
  );
}

/**
 * An address that wraps where a reader expects, after a slash ('…/registration/' then
 * 'business'), never inside a word ('registr' / 'ation'): a line break is offered after each '/',
 * and a part longer than the line is the only one ever cut.
 */
function BreakableAddress({ address }: { address: string }) {
  const parts = address.split(/(?<=\/)(?!\/)/);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 && <wbr />}
    </Fragment>
  ));
}
