import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { errorMessageOf } from '../../api/client';

/**
 * Asks before something that cannot be taken back (revoking a credential, deleting an endpoint):
 * what it does, the server's refusal if it answered one, Cancel, and the red button that does it.
 */
export function ConfirmDangerDialog({
  id,
  open,
  title,
  children,
  confirmLabel,
  error,
  pending,
  onCancel,
  onConfirm,
}: {
  /** The stem of the title's and the text's ids. */
  id: string;
  open: boolean;
  title: ReactNode;
  /** What it does. */
  children: ReactNode;
  confirmLabel: string;
  error: unknown;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-text`} sx={{ overflowWrap: 'anywhere' }}>
          {children}
        </DialogContentText>
        {error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessageOf(error)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button color="error" variant="contained" disabled={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
