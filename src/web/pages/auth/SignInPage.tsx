import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SigninResult, User } from '../../../shared/api/auth';
import { SIGN_IN_NOTICE_PARAM, signInNoticeText } from '../../../shared/api/signInNotices';
import { emailError } from '../../../shared/rules/email';
import { PASSWORD_MESSAGES } from '../../../shared/rules/password';
import { TOTP_MAX_LENGTH, TOTP_REQUIRED_MESSAGE } from '../../../shared/rules/totp';
import { browserLocation, EXCHANGE_SIGN_IN_PATH, errorMessageOf } from '../../api/client';
import { currentUserQueryKey } from '../../api/get-current-user';
import { useRequestPasswordReset } from '../../api/request-password-reset';
import { useSignIn } from '../../api/sign-in';
import { signInWithPasskey } from '../../api/account';
import { PROFILE_URL } from '../../app/session';
import { ADMIN_SITE_URL, postSignInPath } from '../../app/session';
import { AuthCard } from './AuthCard';
import { AuthTextField } from './AuthTextField';

// The toast shows only when a notice was handed over; its Snackbar loads with it.
const InfoToast = lazy(() =>
  import('./InfoToast').then((module) => ({ default: module.InfoToast })),
);

const PASSKEY_NOT_USED_MESSAGE =
  'The passkey was not used. Please sign in again and use your passkey or a code.';
const RESET_RECEIVED_MESSAGE =
  "We received your request. If an account exists for that email, you'll receive a link to reset your password.";

/** Sign-in (/clearing/signin) with its Forgot Password view and the handed-over message toast. */
export function SignInPage() {
  const [params] = useSearchParams();
  // Only the portal's own notices: the address bar hands over a key, never text (DECISIONS).
  const message = signInNoticeText(params.get(SIGN_IN_NOTICE_PARAM));
  const [view, setView] = useState<'signin' | 'forgot'>('signin');
  return (
    <>
      {message && (
        <Suspense fallback={null}>
          <InfoToast key={message} message={message} />
        </Suspense>
      )}
      {view === 'signin' ? (
        <SignInForm redirect={params.get('redirect')} onForgot={() => setView('forgot')} />
      ) : (
        <ForgotPasswordForm onBack={() => setView('signin')} />
      )}
    </>
  );
}

function SignInForm({ redirect, onForgot }: { redirect: string | null; onForgot: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totpCode, setTotpCode] = useState('');
  // The second step the server asked for: a code, a passkey, or either (access §4, DECISIONS).
  const [secondFactor, setSecondFactor] = useState<SecondFactorStep | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const twoFactorRequired = secondFactor !== null;
  // Servers that name no methods ask for a code, as the specification's step does.
  const codeAsked = secondFactor !== null && (secondFactor.methods ?? ['totp']).includes('totp');
  const passkeyOptions = secondFactor?.passkeyOptions;
  const passkey = useMutation({
    mutationFn: async () => {
      if (!passkeyOptions) throw new Error(PASSKEY_NOT_USED_MESSAGE);
      // Loaded on use: the sign-in route's bundle carries no WebAuthn code.
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const response = await startAuthentication({ optionsJSON: passkeyOptions }).catch(() => {
        throw new Error(PASSKEY_NOT_USED_MESSAGE);
      });
      return signInWithPasskey({ response });
    },
    onSuccess: (result) => {
      if (result.authStatus === 'AuthComplete') complete(result.user);
    },
    // The challenge is spent either way: back to the password, which asks anew.
    onError: () => setSecondFactor(null),
  });

  const errors = {
    email: emailError(email),
    password: password ? null : PASSWORD_MESSAGES.signinRequired,
    totpCode: codeAsked && !totpCode.trim() ? TOTP_REQUIRED_MESSAGE : null,
  };

  function complete(user: User) {
    if (user.isNorthstarClearingStaff) {
      browserLocation.assign(ADMIN_SITE_URL);
      return;
    }
    // The profile page is outside this app (a full page load), and the only such place a
    // sign-in returns to.
    if (redirect === PROFILE_URL) {
      browserLocation.assign(PROFILE_URL);
      return;
    }
    queryClient.setQueryData(currentUserQueryKey, user);
    void navigate(postSignInPath(user, redirect), { replace: true });
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (errors.email || errors.password || errors.totpCode) return;
    if (twoFactorRequired && !codeAsked) {
      passkey.mutate();
      return;
    }
    passkey.reset();
    signIn.mutate(
      {
        email: email.trim(),
        password,
        ...(codeAsked ? { totpCode: totpCode.trim() } : {}),
      },
      {
        onSuccess: (result) => {
          if (result.authStatus === 'TwoFactorRequired') {
            setSecondFactor(result);
            setSubmitted(false);
          } else {
            complete(result.user);
          }
        },
      },
    );
  }

  const failure = passkey.isError ? passkey.error : signIn.isError ? signIn.error : null;

  return (
    <AuthCard title="Sign In">
      <Typography color="text.secondary">Sign in to your clearing account.</Typography>
      <form noValidate onSubmit={onSubmit}>
        <AuthTextField
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={submitted && errors.email !== null}
          helperText={submitted ? errors.email : undefined}
          required
          inputProps={{ autoCapitalize: 'off', autoCorrect: 'off', spellCheck: false }}
        />
        <AuthTextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={submitted && errors.password !== null}
          helperText={submitted ? errors.password : undefined}
          required
        />
        {codeAsked && (
          <AuthTextField
            label="2FA Code"
            name="totpCode"
            autoComplete="one-time-code"
            value={totpCode}
            onChange={(event) => setTotpCode(event.target.value)}
            error={submitted && errors.totpCode !== null}
            helperText={
              submitted && errors.totpCode
                ? errors.totpCode
                : 'Enter the code from your authenticator app.'
            }
            required
            inputProps={{ maxLength: TOTP_MAX_LENGTH, inputMode: 'numeric' }}
          />
        )}
        {passkeyOptions && (
          <Button
            type="button"
            variant={codeAsked ? 'outlined' : 'contained'}
            fullWidth
            size="large"
            sx={{ mt: 2 }}
            disabled={passkey.isPending}
            onClick={() => passkey.mutate()}
          >
            {codeAsked ? 'Use a passkey instead' : 'Use your passkey'}
          </Button>
        )}
        {failure && (
          <Alert severity="error" sx={{ mt: 1 }}>
            <AlertTitle>Login Failed</AlertTitle>
            {errorMessageOf(failure)}
            <Box sx={{ mt: 1 }}>
              Exchange users: please sign in at the{' '}
              <Link href={EXCHANGE_SIGN_IN_PATH}>exchange sign-in page</Link>.
            </Box>
          </Alert>
        )}
        <Button
          type="submit"
          variant="contained"
          fullWidth
          size="large"
          sx={{ mt: 2 }}
          disabled={signIn.isPending}
        >
          {signIn.isPending ? 'Signing In…' : 'Sign In'}
        </Button>
      </form>
      <Box sx={{ mt: 2, display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <Link component="button" type="button" onClick={onForgot}>
          Forgot Password?
        </Link>
        <Link component={RouterLink} to="/signup">
          Create an account
        </Link>
      </Box>
      <Typography sx={{ mt: 2, fontSize: '0.875rem' }} color="text.secondary">
        Trading on the exchange? <Link href={EXCHANGE_SIGN_IN_PATH}>Sign in to the exchange</Link>.
      </Typography>
    </AuthCard>
  );
}

type SecondFactorStep = Extract<SigninResult, { authStatus: 'TwoFactorRequired' }>;

function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [received, setReceived] = useState(false);
  const error = emailError(email);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (error) return;
    request.mutate(
      { email: email.trim(), authOrigin: 'Clearing' },
      {
        // Errors are only logged (access §8); the answer looks the same either way.
        onError: (requestError) => console.error(requestError),
        onSettled: () => setReceived(true),
      },
    );
  }

  return (
    <AuthCard title="Forgot Password">
      {received ? (
        <Alert severity="success" sx={{ mt: 2 }}>
          {RESET_RECEIVED_MESSAGE}
        </Alert>
      ) : (
        <>
          <Typography color="text.secondary">
            Enter your email and we will send you a link to choose a new password.
          </Typography>
          <form noValidate onSubmit={onSubmit}>
            <AuthTextField
              label="Email"
              type="email"
              name="email"
              autoComplete="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              error={submitted && error !== null}
              helperText={submitted ? error : undefined}
              required
              inputProps={{ autoCapitalize: 'off', autoCorrect: 'off', spellCheck: false }}
            />
            <Button
              type="submit"
              variant="contained"
              fullWidth
              size="large"
              sx={{ mt: 2 }}
              disabled={request.isPending}
            >
              Send Reset Link
            </Button>
          </form>
        </>
      )}
      <Link component="button" type="button" onClick={onBack} sx={{ mt: 3 }}>
        Back to Sign In
      </Link>
    </AuthCard>
  );
}
