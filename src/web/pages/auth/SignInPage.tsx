import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from '../../../shared/api/auth';
import { SIGN_IN_NOTICE_PARAM, signInNoticeText } from '../../../shared/api/signInNotices';
import { emailError } from '../../../shared/rules/email';
import { browserLocation, EXCHANGE_SIGN_IN_PATH } from '../../api/client';
import { currentUserQueryKey } from '../../api/get-current-user';
import { useRequestPasswordReset } from '../../api/request-password-reset';
import { PROFILE_URL } from '../../app/session';
import { ADMIN_SITE_URL, postSignInPath } from '../../app/session';
import { AuthCard } from './AuthCard';
import { AuthTextField } from './AuthTextField';
import { SignInForm } from './SignInForm';
import { lazyPart, PartBoundary } from '../../app/LazyPart';

// The toast shows only when a notice was handed over; its Snackbar loads with it.
const InfoToast = lazyPart(() => import('./InfoToast').then((module) => module.InfoToast));

const RESET_RECEIVED_MESSAGE =
  "We received your request. If an account exists for that email, you'll receive a link to reset your password.";

/** Sign-in (/clearing/signin) with its Forgot Password view and the handed-over message toast. */
export function SignInPage() {
  const [params] = useSearchParams();
  // Only the portal's own notices: the address bar hands over a key, never text (docs/decisions.md,
  // Applicants and reviewers).
  const message = signInNoticeText(params.get(SIGN_IN_NOTICE_PARAM));
  const [view, setView] = useState<'signin' | 'forgot'>('signin');
  return (
    <>
      {message && (
        <PartBoundary retry={InfoToast.retry} floating>
          <InfoToast key={message} message={message} />
        </PartBoundary>
      )}
      {view === 'signin' ? (
        <SignInCard redirect={params.get('redirect')} onForgot={() => setView('forgot')} />
      ) : (
        <ForgotPasswordForm onBack={() => setView('signin')} />
      )}
    </>
  );
}

function SignInCard({ redirect, onForgot }: { redirect: string | null; onForgot: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

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

  return (
    <AuthCard title="Sign In">
      <Typography color="text.secondary">Sign in to your clearing account.</Typography>
      <SignInForm
        onSignedIn={complete}
        failureTitle="Login Failed"
        failureNote={
          <Box sx={{ mt: 1 }}>
            Exchange users: please sign in at the{' '}
            <Link href={EXCHANGE_SIGN_IN_PATH}>exchange sign-in page</Link>.
          </Box>
        }
      >
        {({ fields, pending }) => (
          <>
            {fields}
            <Button
              type="submit"
              variant="contained"
              fullWidth
              size="large"
              sx={{ mt: 2 }}
              disabled={pending}
            >
              {pending ? 'Signing In…' : 'Sign In'}
            </Button>
          </>
        )}
      </SignInForm>
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
