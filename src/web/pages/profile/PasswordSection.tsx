import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PASSWORD_MESSAGES, type PasswordContext } from '../../../shared/rules/password';
import { useChangePassword } from '../../api/account';
import { ApiError, errorMessageOf } from '../../api/client';
import { NewPasswordFields, usePasswordPair } from '../auth/NewPasswordFields';

/**
 * Change password: the current one, the new one with the same rules and meter as everywhere
 * (access §5, DECISIONS "Security"), and the offer to end the other sessions (ASVS 7.4.3).
 * `account` names the signed-in person: a new password made of those words is refused here as
 * the server refuses it.
 */
export function PasswordSection({ account }: { account: PasswordContext }) {
  const change = useChangePassword();
  const pair = usePasswordPair(account);
  const [current, setCurrent] = useState('');
  const [endOthers, setEndOthers] = useState(true);
  const [submitted, setSubmitted] = useState(false);
  // Remounting the fields after a change clears their touched state with their values.
  const [round, setRound] = useState(0);
  const serverErrors = change.error instanceof ApiError ? change.error.errors : undefined;
  const currentError =
    submitted && !current
      ? PASSWORD_MESSAGES.signinRequired
      : (serverErrors?.currentPassword ?? null);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!current || !pair.valid) return;
    change.mutate(
      { currentPassword: current, newPassword: pair.password, endOtherSessions: endOthers },
      {
        onSuccess: () => {
          setCurrent('');
          pair.setPassword('');
          pair.setConfirm('');
          setSubmitted(false);
          setRound((n) => n + 1);
        },
      },
    );
  }

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby="password-heading">
      <Typography variant="h2" id="password-heading" gutterBottom>
        Password
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, maxWidth: 420 }}>
        <TextField
          label="Current password"
          type="password"
          name="currentPassword"
          autoComplete="current-password"
          value={current}
          onChange={(event) => setCurrent(event.target.value)}
          error={currentError !== null}
          helperText={currentError}
          required
        />
        <NewPasswordFields
          key={round}
          pair={pair}
          showErrors={submitted}
          labels={{ password: 'New password', confirm: 'Confirm new password' }}
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={endOthers}
              onChange={(event) => setEndOthers(event.target.checked)}
            />
          }
          label="Sign out of all my other sessions"
        />
      </Box>
      {change.isError && !serverErrors?.currentPassword ? (
        <Alert severity="error" sx={{ mt: 2, maxWidth: 420 }}>
          {errorMessageOf(change.error)}
        </Alert>
      ) : null}
      {change.isSuccess ? (
        <Alert severity="success" sx={{ mt: 2, maxWidth: 420 }}>
          Your password has been changed.
          {change.data.endedSessions > 0
            ? ` ${change.data.endedSessions} other ${change.data.endedSessions === 1 ? 'session was' : 'sessions were'} signed out.`
            : ''}
        </Alert>
      ) : null}
      <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={change.isPending}>
        Change Password
      </Button>
    </Box>
  );
}
