import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { useResetPassword } from '../../api/reset-password';
import { signInPath } from '../../app/session';
import { AuthCard } from './AuthCard';
import { SubmitWithFailure } from './SubmitWithFailure';
import { InvalidLinkCard } from './InvalidLinkCard';
import { NewPasswordFields, usePasswordPair } from './NewPasswordFields';

const INVALID_RESET_URL_MESSAGE =
  'Invalid URL. Reach out to an admin to get a new password reset url.';

/** /clearing/user/reset-password?access_token=&user_id=: choose a new password. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('access_token');
  const userId = params.get('user_id');
  if (!token || !userId) {
    return <InvalidLinkCard title="Reset Password" message={INVALID_RESET_URL_MESSAGE} />;
  }
  return <ResetPasswordForm token={token} userId={userId} />;
}

function ResetPasswordForm({ token, userId }: { token: string; userId: string }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const pair = usePasswordPair();
  const [submitted, setSubmitted] = useState(false);
  // ASVS 7.4.3: a reset offers to end every session (a reset often follows a lost password).
  const [endSessions, setEndSessions] = useState(true);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!pair.valid) return;
    reset.mutate(
      { token, password: pair.password, userId, endOtherSessions: endSessions },
      { onSuccess: () => void navigate(signInPath('password-reset'), { replace: true }) },
    );
  }

  return (
    <AuthCard title="Reset Password" heading="Choose a New Password">
      <Typography color="text.secondary">Enter and confirm your new password.</Typography>
      <form noValidate onSubmit={onSubmit}>
        <NewPasswordFields pair={pair} showErrors={submitted} />
        <FormControlLabel
          control={
            <Checkbox
              checked={endSessions}
              onChange={(event) => setEndSessions(event.target.checked)}
            />
          }
          label="Sign out everywhere I am signed in"
        />
        <SubmitWithFailure
          label="Reset Password"
          pending={reset.isPending}
          error={reset.isError ? reset.error : null}
        />
      </form>
    </AuthCard>
  );
}
