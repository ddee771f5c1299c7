import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { emailError } from '../../../shared/rules/email';
import { useVerifyEmail, useVerifyLinkCheck } from '../../api/verify-email';
import { signInPath } from '../../app/session';
import { AuthCard } from './AuthCard';
import { SendLinkAgain } from './SendLinkAgain';
import { SubmitWithFailure } from './SubmitWithFailure';
import { InvalidLinkCard } from './InvalidLinkCard';
import { NewPasswordFields, usePasswordPair } from './NewPasswordFields';

const INVALID_VERIFY_URL_MESSAGE =
  'Invalid URL. Reach out to an admin to get a new email verification url.';
export const DEAD_VERIFY_LINK_MESSAGE =
  'This verification link can no longer be used. It may have expired (a link works for 24 hours), been used already, or been replaced by a newer one.';

/** /clearing/user/verify-email?email=&access_token=: a new user sets a password. */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const email = params.get('email');
  const token = params.get('access_token');
  if (!email || !token) {
    return <InvalidLinkCard title="Verify Email" message={INVALID_VERIFY_URL_MESSAGE} />;
  }
  return <CheckedVerifyLink email={email} token={token} />;
}

/**
 * The link is checked as the page opens (issue 38 §4), so a dead one is said at once, with a way
 * to a new one, rather than after a password is typed. The check uses nothing up; when it cannot
 * be made, the form is shown and its submission says what the server finds.
 */
function CheckedVerifyLink({ email, token }: { email: string; token: string }) {
  const check = useVerifyLinkCheck({ token, email });
  if (check.isPending) {
    return (
      <AuthCard title="Verify Email">
        <Typography role="status" color="text.secondary">
          Checking your link…
        </Typography>
      </AuthCard>
    );
  }
  if (check.data?.usable === false) return <DeadVerifyLink email={email} />;
  return <VerifyEmailForm email={email} token={token} />;
}

function DeadVerifyLink({ email }: { email: string }) {
  const canResend = emailError(email, { strict: true }) === null;
  return (
    <AuthCard title="Verify Email" heading="This link no longer works">
      <Alert severity="error" sx={{ mt: 2 }}>
        {DEAD_VERIFY_LINK_MESSAGE}
      </Alert>
      {canResend ? (
        <>
          <Typography sx={{ mt: 2 }}>
            Get a new link sent to <strong>{email}</strong>:
          </Typography>
          <SendLinkAgain email={email} label="Send me a new link" />
        </>
      ) : null}
      <Typography sx={{ mt: 3 }}>
        Already set your password?{' '}
        <Link component={RouterLink} to="/signin">
          Sign In
        </Link>
      </Typography>
    </AuthCard>
  );
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
