import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from '../../shared/api/auth';
import { currentUserQueryKey } from '../api/get-current-user';
import { SignInForm } from '../pages/auth/SignInForm';

export const SESSION_EXPIRED_TITLE = 'Please sign in again';
const SESSION_EXPIRED_TEXT =
  'Your session has ended. Sign in again to carry on where you were: nothing on this page is lost.';

/**
 * The sign-in asked for in place when a background call met an expired session: the sign-in
 * page's own form (SignInForm) with the signed-in email read-only (the answers on the page are
 * that account's), the password, then the second step the account asks for (a 2FA code or a
 * passkey).
 */
export function SessionExpiredDialog({
  onSignedIn,
  onCancel,
}: {
  onSignedIn: () => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const known = queryClient.getQueryData<User | null>(currentUserQueryKey);
  return (
    <Dialog
      open
      onClose={onCancel}
      aria-labelledby="session-expired-title"
      aria-describedby="session-expired-text"
    >
      <SignInForm
        knownEmail={known?.email}
        containSubmit
        onSignedIn={(user) => {
          queryClient.setQueryData(currentUserQueryKey, user);
          onSignedIn();
        }}
      >
        {({ fields, pending }) => (
          <>
            <DialogTitle id="session-expired-title">{SESSION_EXPIRED_TITLE}</DialogTitle>
            <DialogContent>
              <DialogContentText id="session-expired-text">
                {SESSION_EXPIRED_TEXT}
              </DialogContentText>
              {fields}
            </DialogContent>
            <DialogActions>
              <Button onClick={onCancel}>Cancel</Button>
              <Button type="submit" variant="contained" disabled={pending}>
                {pending ? 'Signing In…' : 'Sign In'}
              </Button>
            </DialogActions>
          </>
        )}
      </SignInForm>
    </Dialog>
  );
}
