import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { SessionRenewalDeclined } from './sessionExpiry';

/**
 * After a cancelled sign-in: the answers on the page are kept, with a way back to the sign-in
 * dialog. Its own module, loaded when shown: the sign-in page carries no Snackbar.
 */
export function SessionDeclinedNotice({
  onClose,
  onSignIn,
}: {
  onClose: () => void;
  onSignIn: () => void;
}) {
  return (
    <Snackbar open anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert
        severity="info"
        onClose={onClose}
        action={
          <Button color="inherit" size="small" onClick={onSignIn}>
            Sign in
          </Button>
        }
      >
        {new SessionRenewalDeclined().message}
      </Alert>
    </Snackbar>
  );
}
