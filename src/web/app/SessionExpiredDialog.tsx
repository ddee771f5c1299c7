import { useCallback, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from '../../shared/api/auth';
import { PASSWORD_MESSAGES } from '../../shared/rules/password';
import { TOTP_MAX_LENGTH, TOTP_REQUIRED_MESSAGE } from '../../shared/rules/totp';
import { errorMessageOf } from '../api/client';
import { currentUserQueryKey } from '../api/get-current-user';
import { signIn } from '../api/sign-in';

export const SESSION_EXPIRED_TITLE = 'Please sign in again';
const SESSION_EXPIRED_TEXT =
  'Your session has ended. Sign in again to carry on where you were: nothing on this page is lost.';

/**
 * The sign-in asked for in place when a background call met an expired session: the signed-in
 * email (read-only: the answers on the page are that account's), the password, and the 2FA code
 * when the account has one (the sign-in API's TwoFactorRequired step). A passkey-only second
 * factor is answered on the sign-in page (its WebAuthn code stays out of every form's bundle).
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
  const [email, setEmail] = useState(known?.email ?? '');
  const [password, setPassword] = useState('');
  const [totpCode, setTotpCode] = useState('');
  const [codeAsked, setCodeAsked] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // The field to answer next takes the focus as it appears: the password, then the code.
  const focusOnMount = useCallback((input: HTMLInputElement | null) => input?.focus(), []);

  const errors = {
    email: email.trim() ? null : 'Enter your email',
    password: password ? null : PASSWORD_MESSAGES.signinRequired,
    totpCode: codeAsked && !totpCode.trim() ? TOTP_REQUIRED_MESSAGE : null,
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    // The dialog sits inside the page's form in the React tree: its submit stays here.
    event.stopPropagation();
    setSubmitted(true);
    if (errors.email || errors.password || errors.totpCode) return;
    setPending(true);
    setFailure(null);
    try {
      const result = await signIn({
        email: email.trim(),
        password,
        ...(codeAsked ? { totpCode: totpCode.trim() } : {}),
      });
      if (result.authStatus === 'TwoFactorRequired') {
        setCodeAsked(true);
        setSubmitted(false);
        return;
      }
      queryClient.setQueryData(currentUserQueryKey, result.user);
      onSignedIn();
    } catch (error) {
      setFailure(errorMessageOf(error));
    } finally {
      setPending(false);
    }
  }

  const show = (message: string | null) => (submitted ? message : null);
  return (
    <Dialog
      open
      onClose={onCancel}
      aria-labelledby="session-expired-title"
      aria-describedby="session-expired-text"
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <DialogTitle id="session-expired-title">{SESSION_EXPIRED_TITLE}</DialogTitle>
        <DialogContent>
          <DialogContentText id="session-expired-text">{SESSION_EXPIRED_TEXT}</DialogContentText>
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={show(errors.email) !== null}
            helperText={show(errors.email)}
            slotProps={{ htmlInput: { readOnly: !!known?.email } }}
            required
            fullWidth
            margin="normal"
          />
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={show(errors.password) !== null}
            helperText={show(errors.password)}
            inputRef={focusOnMount}
            required
            fullWidth
            margin="normal"
          />
          {codeAsked && (
            <TextField
              label="2FA Code"
              name="totpCode"
              autoComplete="one-time-code"
              value={totpCode}
              onChange={(event) => setTotpCode(event.target.value)}
              error={show(errors.totpCode) !== null}
              helperText={show(errors.totpCode) ?? 'Enter the code from your authenticator app.'}
              slotProps={{ htmlInput: { maxLength: TOTP_MAX_LENGTH, inputMode: 'numeric' } }}
              inputRef={focusOnMount}
              required
              fullWidth
              margin="normal"
            />
          )}
          {failure && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {failure}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={pending}>
            {pending ? 'Signing In…' : 'Sign In'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
