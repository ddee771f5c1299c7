import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { errorMessageOf } from '../../api/client';
import { CAPTCHA_UNAVAILABLE_MESSAGE } from './recaptcha';
import { useSignupRequest } from './useSignupRequest';

/**
 * Sends the verification email to `email` again (issue 38 §4), through sign-up, which answers
 * every address the same and sends one address at most a few such emails an hour: what it says
 * after sending promises no more than that.
 */
export function SendLinkAgain({ email, label }: { email: string; label: string }) {
  const request = useSignupRequest();
  const [sent, setSent] = useState(false);
  const pending = request.signUp.isPending || request.configPending;
  return (
    <>
      <Button
        variant="outlined"
        fullWidth
        sx={{ mt: 2 }}
        disabled={pending}
        onClick={() => void request.send(email, () => setSent(true))}
      >
        {request.signUp.isPending ? 'Sending…' : label}
      </Button>
      {sent && !request.signUp.isPending ? (
        <Alert severity="success" sx={{ mt: 1 }} role="status">
          We have asked for a new email to {email}. It can take a few minutes; check your spam
          folder too. To protect your inbox, an address gets only a few of these emails an hour.
        </Alert>
      ) : null}
      {request.captchaUnavailable ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {CAPTCHA_UNAVAILABLE_MESSAGE}
        </Alert>
      ) : null}
      {request.signUp.isError ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorMessageOf(request.signUp.error)}
        </Alert>
      ) : null}
    </>
  );
}
