import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { PASSWORD_MESSAGES } from '../../../shared/rules/password';
import { ApiError, errorMessageOf } from '../../api/client';

/**
 * Asks for the password again before a change to how the user signs in (ASVS 7.5.1). `onConfirm`
 * runs the change with it; a wrong password shows the specification's 'Password is wrong' on the
 * field, any other failure above the buttons, and the dialog stays open with nothing lost.
 */
export function ConfirmPasswordDialog(props: {
  open: boolean;
  action: string;
  onConfirm: (password: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [submitted, setSubmitted] = useState(false);
  const wrong = error instanceof ApiError && error.errors?.password === PASSWORD_MESSAGES.wrong;

  function close() {
    setPassword('');
    setError(null);
    setSubmitted(false);
    props.onClose();
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!password) return;
    setPending(true);
    setError(null);
    try {
      await props.onConfirm(password);
      setPassword('');
      setSubmitted(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  }

  const fieldError =
    submitted && !password
      ? PASSWORD_MESSAGES.signinRequired
      : wrong
        ? PASSWORD_MESSAGES.wrong
        : null;
  return (
    <Dialog open={props.open} onClose={close} aria-labelledby="confirm-password-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="confirm-password-title">Confirm your password</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            To {props.action}, enter your password again.
          </DialogContentText>
          <TextField
            label="Your password"
            type="password"
            name="confirmPassword"
            autoComplete="current-password"
            fullWidth
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={fieldError !== null}
            helperText={fieldError}
          />
          {error && !wrong ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {errorMessageOf(error)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={pending}>
            Continue
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
