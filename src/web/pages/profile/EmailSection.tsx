import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { emailError } from '../../../shared/rules/email';
import { PASSWORD_MESSAGES } from '../../../shared/rules/password';
import { useChangeEmail } from '../../api/account';
import { ApiError, errorMessageOf } from '../../api/client';

/**
 * Change of sign-in email: the new address and the password again (ASVS 7.5.1). A link goes to
 * the new address; the email changes only when it is opened.
 */
export function EmailSection() {
  const change = useChangeEmail();
  const [open, setOpen] = useState(false);
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const server = change.error instanceof ApiError ? change.error.errors : undefined;
  const errors = {
    newEmail: submitted ? (emailError(newEmail) ?? server?.newEmail ?? null) : null,
    password: submitted
      ? password
        ? server?.password === PASSWORD_MESSAGES.wrong
          ? PASSWORD_MESSAGES.wrong
          : null
        : PASSWORD_MESSAGES.signinRequired
      : null,
  };

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (emailError(newEmail) || !password) return;
    change.mutate({ newEmail: newEmail.trim(), password }, { onSuccess: () => setPassword('') });
  }

  if (change.isSuccess) {
    return (
      <Alert severity="info" sx={{ maxWidth: 560 }}>
        We sent a link to {newEmail.trim()}. Open it within an hour to make it your sign-in email;
        until then, nothing changes.
      </Alert>
    );
  }
  if (!open) {
    return (
      <Button variant="text" onClick={() => setOpen(true)} sx={{ justifySelf: 'start', px: 0 }}>
        Change email
      </Button>
    );
  }
  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      aria-label="Change email"
      sx={{ display: 'grid', gap: 2, maxWidth: 420, mt: 1 }}
    >
      <TextField
        label="New email"
        type="email"
        name="newEmail"
        autoComplete="email"
        value={newEmail}
        onChange={(event) => setNewEmail(event.target.value)}
        error={errors.newEmail !== null}
        helperText={errors.newEmail}
        required
      />
      <TextField
        label="Your password"
        type="password"
        name="emailChangePassword"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors.password !== null}
        helperText={errors.password}
        required
      />
      {change.isError && !errors.password && !server?.newEmail ? (
        <Alert severity="error">{errorMessageOf(change.error)}</Alert>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button type="submit" variant="contained" disabled={change.isPending}>
          Send confirmation link
        </Button>
        <Button onClick={() => setOpen(false)}>Cancel</Button>
      </Box>
    </Box>
  );
}
