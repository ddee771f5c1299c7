import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { emailError } from '../../../shared/rules/email';
import type { IdentityConfirmation } from '../../../shared/api/account';
import { useChangeEmail } from '../../api/account';
import { ApiError } from '../../api/client';
import { ConfirmIdentityDialog } from './ConfirmIdentityDialog';

/**
 * Change of sign-in email: the new address, then the confirmation dialog (the password again
 * and, with two-factor on, a current second factor: ASVS 7.5.1, issue 27 §2). A link goes to the
 * new address; the email changes only when it is opened.
 */
export function EmailSection({ email }: { email: string }) {
  const change = useChangeEmail();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [newEmail, setNewEmail] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const fieldError = submitted ? (emailError(newEmail) ?? serverError) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setServerError(null);
    if (emailError(newEmail)) return;
    setConfirming(true);
  }

  async function send(proof: IdentityConfirmation) {
    try {
      await change.mutateAsync({ newEmail: newEmail.trim(), ...proof });
    } catch (error) {
      // The address itself was refused (already yours): said on its field, the dialog closed.
      if (!(error instanceof ApiError) || !error.errors?.newEmail) throw error;
      setServerError(error.serverMessage ?? error.errors.newEmail);
    }
    setConfirming(false);
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
        error={fieldError !== null}
        helperText={fieldError}
        required
      />
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button type="submit" variant="contained" disabled={change.isPending}>
          Send confirmation link
        </Button>
        <Button onClick={() => setOpen(false)}>Cancel</Button>
      </Box>
      <ConfirmIdentityDialog
        open={confirming}
        email={email}
        action={`send a confirmation link to ${newEmail.trim()}`}
        onClose={() => setConfirming(false)}
        onConfirm={send}
      />
    </Box>
  );
}
