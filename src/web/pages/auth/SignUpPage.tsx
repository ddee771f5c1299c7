import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { emailError } from '../../../shared/rules/email';
import { firm } from '../../../shared/config/firm';
import { errorMessageOf } from '../../api/client';
import { useConfig } from '../../api/get-config';
import { useSignUp } from '../../api/sign-up';
import { AuthCard } from './AuthCard';
import { AuthTextField } from './AuthTextField';
import {
  CAPTCHA_UNAVAILABLE_MESSAGE,
  executeSignupCaptcha,
  getRecaptcha,
  loadRecaptcha,
} from './recaptcha';
import { SupportHint } from './SupportHint';

const SIGNUP_DONE_MESSAGE = 'Verify your email with the link sent to your email.';

/** Sign-up (/clearing and /clearing/signup): email, invisible captcha, then a thank-you notice. */
export function SignUpPage() {
  const config = useConfig();
  const signUp = useSignUp();
  const [email, setEmail] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const [captchaUnavailable, setCaptchaUnavailable] = useState(false);
  const siteKey = config.data?.recaptcha_site_key ?? '';

  useEffect(() => {
    if (siteKey) loadRecaptcha(siteKey);
  }, [siteKey]);

  const error = emailError(email);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setShowErrors(true);
    if (error) return;
    setCaptchaUnavailable(false);
    let recaptchaToken: string | undefined;
    if (siteKey) {
      const grecaptcha = getRecaptcha();
      if (!grecaptcha) {
        setCaptchaUnavailable(true);
        return;
      }
      try {
        recaptchaToken = await executeSignupCaptcha(grecaptcha, siteKey);
      } catch (captchaError) {
        console.error(captchaError);
        setCaptchaUnavailable(true);
        return;
      }
    }
    signUp.mutate({ email: email.trim(), recaptchaToken, authOrigin: 'Clearing' });
  }

  if (signUp.isSuccess) {
    return (
      <AuthCard title="Sign Up" heading="Thank you">
        <Alert severity="success" sx={{ mt: 2 }}>
          {SIGNUP_DONE_MESSAGE}
        </Alert>
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
          disabled={config.isPending || signUp.isPending}
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
