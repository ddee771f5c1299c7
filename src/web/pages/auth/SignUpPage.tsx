import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { emailError } from '../../../shared/rules/email';
import { firm } from '../../../shared/config/firm';
import { errorMessageOf } from '../../api/client';
import { AuthCard } from './AuthCard';
import { AuthTextField } from './AuthTextField';
import { CAPTCHA_UNAVAILABLE_MESSAGE } from './recaptcha';
import { SendLinkAgain } from './SendLinkAgain';
import { SupportHint } from './SupportHint';
import { useSignupRequest } from './useSignupRequest';

const SIGNUP_DONE_MESSAGE = 'Verify your email with the link sent to your email.';

/**
 * Sign-up (/clearing and /clearing/signup): email, invisible captcha, then a thank-you notice that
 * can send the email again (issue 38 §4).
 */
export function SignUpPage() {
  const request = useSignupRequest();
  const { signUp, captchaUnavailable } = request;
  const [email, setEmail] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  /** The address signed up with: the thank-you notice is shown from then on. */
  const [sentTo, setSentTo] = useState<string | null>(null);

  const error = emailError(email);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setShowErrors(true);
    if (error) return;
    const address = email.trim();
    await request.send(address, () => setSentTo(address));
  }

  if (sentTo !== null) {
    return (
      <AuthCard title="Sign Up" heading="Thank you">
        <Alert severity="success" sx={{ mt: 2 }}>
          {SIGNUP_DONE_MESSAGE}
        </Alert>
        <Typography sx={{ mt: 2 }} color="text.secondary">
          No email from us in a few minutes? Check your spam folder, or have it sent again.
        </Typography>
        <SendLinkAgain email={sentTo} label="Send the email again" />
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Sign Up">
      <Typography color="text.secondary">
        Open a clearing account with {firm.displayName}. Start with your email address.
      </Typography>
      <form noValidate onSubmit={onSubmit}>
        <AuthTextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          onBlur={() => email && setShowErrors(true)}
          error={showErrors && error !== null}
          helperText={showErrors ? error : undefined}
          required
          inputProps={{ autoCapitalize: 'off', autoCorrect: 'off', spellCheck: false }}
        />
        {captchaUnavailable && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {CAPTCHA_UNAVAILABLE_MESSAGE}
          </Alert>
        )}
        {signUp.isError && (
          <Alert severity="error" sx={{ mt: 1 }}>
            <AlertTitle>Signup Failed</AlertTitle>
            {errorMessageOf(signUp.error)}
            <SupportHint />
          </Alert>
        )}
        <Button
          type="submit"
          variant="contained"
          fullWidth
          size="large"
          sx={{ mt: 2 }}
          disabled={request.configPending || signUp.isPending}
        >
          {signUp.isPending ? 'Signing Up…' : 'Sign Up'}
        </Button>
      </form>
      <Typography sx={{ mt: 3 }}>
        Already have an account?{' '}
        <Link component={RouterLink} to="/signin">
          Sign In
        </Link>
      </Typography>
    </AuthCard>
  );
}
