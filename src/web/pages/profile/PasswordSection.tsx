import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import type { IdentityConfirmation } from '../../../shared/api/account';
import type { PasswordContext } from '../../../shared/rules/password';
import { useChangePassword } from '../../api/account';
import { ApiError, errorMessageOf } from '../../api/client';
import { NewPasswordFields, usePasswordPair } from '../auth/NewPasswordFields';
import { ConfirmIdentityDialog } from './ConfirmIdentityDialog';

/**
 * Change password: the new one with the same rules and meter as everywhere (access §5,
 * docs/decisions.md, Passwords and sessions), the offer to end the other sessions (ASVS 7.4.3),
 * then the confirmation dialog: the current password and, with two-factor on, a current second
 * factor (issue 27 §2). `account` names the signed-in person: a new password made of those words is
 * refused here as the server refuses it.
 */
export function PasswordSection({ account }: { account: PasswordContext }) {
  const change = useChangePassword();
  const pair = usePasswordPair(account);
  const [endOthers, setEndOthers] = useState(true);
  const [submitted, setSubmitted] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Remounting the fields after a change clears their touched state with their values.
  const [round, setRound] = useState(0);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!pair.valid) return;
    change.reset();
    setConfirming(true);
  }

  async function changePassword({ password, ...secondFactor }: IdentityConfirmation) {
    try {
      await change.mutateAsync({
        currentPassword: password,
        newPassword: pair.password,
        endOtherSessions: endOthers,
        ...secondFactor,
      });
      pair.setPassword('');
      pair.setConfirm('');
      setSubmitted(false);
      setRound((n) => n + 1);
    } catch (error) {
      // The new password was refused (the server's rules): said below the form, the dialog closed.
      if (!(error instanceof ApiError) || !error.errors?.newPassword) throw error;
    }
    setConfirming(false);
  }

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby="password-heading">
      <Typography variant="h2" id="password-heading" gutterBottom>
        Password
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, maxWidth: 420 }}>
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
      {change.isError && !confirming ? (
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
      <ConfirmIdentityDialog
        open={confirming}
        email={account.email ?? ''}
        action="change your password"
        onClose={() => {
          setConfirming(false);
          change.reset();
        }}
        onConfirm={changePassword}
      />
    </Box>
  );
}
