import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { emailError } from '../../../shared/rules/email';
import { useVerifyEmail } from '../../api/verify-email';
import { signInPath } from '../../app/session';
import { AuthCard } from './AuthCard';
import { SubmitWithFailure } from './SubmitWithFailure';
import { InvalidLinkCard } from './InvalidLinkCard';
import { NewPasswordFields, usePasswordPair } from './NewPasswordFields';

const INVALID_VERIFY_URL_MESSAGE =
  'Invalid URL. Reach out to an admin to get a new email verification url.';

/** /clearing/user/verify-email?email=&access_token=: a new user sets a password. */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const email = params.get('email');
  const token = params.get('access_token');
  if (!email || !token) {
    return <InvalidLinkCard title="Verify Email" message={INVALID_VERIFY_URL_MESSAGE} />;
  }
  return <VerifyEmailForm email={email} token={token} />;
}

function VerifyEmailForm({ email, token }: { email: string; token: string }) {
  const navigate = useNavigate();
  const verify = useVerifyEmail();
  const pair = usePasswordPair({ email });
  const [submitted, setSubmitted] = useState(false);
  const emailProblem = emailError(email, { strict: true });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (emailProblem || !pair.valid) return;
    verify.mutate(
      { token, password: pair.password, email },
      { onSuccess: () => void navigate(signInPath('verified'), { replace: true }) },
    );
  }

  return (
    <AuthCard title="Verify Email" heading="Set Your Password">
      <Typography color="text.secondary">
        Choose a password to finish verifying your email address.
      </Typography>
      <form noValidate onSubmit={onSubmit}>
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          error={emailProblem !== null}
          helperText={emailProblem}
          slotProps={{ htmlInput: { readOnly: true, autoCapitalize: 'off' } }}
        />
        <NewPasswordFields pair={pair} showErrors={submitted} />
        <SubmitWithFailure
          label="Set Password"
          pending={verify.isPending}
          error={verify.isError ? verify.error : null}
        />
      </form>
    </AuthCard>
  );
}
