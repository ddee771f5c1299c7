import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useMutation } from '@tanstack/react-query';
import type { SigninResult, User } from '../../../shared/api/auth';
import { emailError } from '../../../shared/rules/email';
import { PASSWORD_MESSAGES } from '../../../shared/rules/password';
import { TOTP_MAX_LENGTH, TOTP_REQUIRED_MESSAGE } from '../../../shared/rules/totp';
import { signInWithPasskey } from '../../api/account';
import { errorMessageOf } from '../../api/client';
import { useSignIn } from '../../api/sign-in';
import { AuthTextField } from './AuthTextField';

const PASSKEY_NOT_USED_MESSAGE =
  'The passkey was not used. Please sign in again and use your passkey or a code.';

type SecondFactorStep = Extract<SigninResult, { authStatus: 'TwoFactorRequired' }>;

/** What a sign-in form's place lays out: the page's card, or the dialog's content and actions. */
interface SignInFormParts {
  /** Email, password, the second step when asked (code, passkey), and the failure. */
  fields: ReactNode;
  /** A password sign-in is on its way: the submit button waits ('Signing In…'). */
  pending: boolean;
}

/**
 * The one sign-in form (the sign-in page's, and the dialog that asks again in place when a
 * session ended): email and password, then the second step the server asks for (a code from an
 * authenticator app, a passkey, or either; access §4, DECISIONS). Its place draws the parts
 * (`children`) and the submit button, inside this form.
 *
 * With `knownEmail` (the dialog: the answers on the page are that account's) the email is shown
 * read-only and the password takes the focus; the code takes it when it is asked for.
 */
export function SignInForm(props: {
  knownEmail?: string | undefined;
  onSignedIn: (user: User) => void;
  /** Above the server's message when a sign-in fails (the page's 'Login Failed'). */
  failureTitle?: string;
  /** Below it (the page's pointer to the exchange's own sign-in). */
  failureNote?: ReactNode;
  /** The form sits inside another in the React tree (a dialog): its submit stays here. */
  containSubmit?: boolean;
  children: (parts: SignInFormParts) => ReactNode;
}) {
  const { knownEmail, onSignedIn } = props;
  const signIn = useSignIn();
  const [email, setEmail] = useState(knownEmail ?? '');
  const [password, setPassword] = useState('');
  const [totpCode, setTotpCode] = useState('');
  const [secondFactor, setSecondFactor] = useState<SecondFactorStep | null>(null);
  const [submitted, setSubmitted] = useState(false);
  // Servers that name no methods ask for a code, as the specification's step does.
  const codeAsked = secondFactor !== null && (secondFactor.methods ?? ['totp']).includes('totp');
  const passkeyOptions = secondFactor?.passkeyOptions;
  // The field to answer next takes the focus as it appears.
  const focusOnMount = useCallback((input: HTMLInputElement | null) => input?.focus(), []);
  const passkey = useMutation({
    mutationFn: async () => {
      if (!passkeyOptions) throw new Error(PASSKEY_NOT_USED_MESSAGE);
      // Loaded on use: no bundle carries the WebAuthn code until a passkey answers.
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const response = await startAuthentication({ optionsJSON: passkeyOptions }).catch(() => {
        throw new Error(PASSKEY_NOT_USED_MESSAGE);
      });
      return signInWithPasskey({ response });
    },
    onSuccess: (result) => {
      if (result.authStatus === 'AuthComplete') onSignedIn(result.user);
    },
    // The challenge is spent either way: back to the password, which asks anew.
    onError: () => setSecondFactor(null),
  });

  const errors = {
    email: emailError(email),
    password: password ? null : PASSWORD_MESSAGES.signinRequired,
    totpCode: codeAsked && !totpCode.trim() ? TOTP_REQUIRED_MESSAGE : null,
  };
  const shown = (message: string | null) => (submitted ? message : null);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (props.containSubmit) event.stopPropagation();
    setSubmitted(true);
    if (errors.email || errors.password || errors.totpCode) return;
    if (secondFactor !== null && !codeAsked) {
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
            onSignedIn(result.user);
          }
        },
      },
    );
  }

  const failure = passkey.isError ? passkey.error : signIn.isError ? signIn.error : null;
  const fields = (
    <>
      <AuthTextField
        label="Email"
        type="email"
        name="email"
        autoComplete="username"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={shown(errors.email) !== null}
        helperText={shown(errors.email)}
        required
        inputProps={{
          autoCapitalize: 'off',
          autoCorrect: 'off',
          spellCheck: false,
          readOnly: !!knownEmail,
        }}
      />
      <AuthTextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={shown(errors.password) !== null}
        helperText={shown(errors.password)}
        required
        {...(knownEmail ? { inputRef: focusOnMount } : {})}
      />
      {codeAsked && (
        <AuthTextField
          label="2FA Code"
          name="totpCode"
          autoComplete="one-time-code"
          value={totpCode}
          onChange={(event) => setTotpCode(event.target.value)}
          error={shown(errors.totpCode) !== null}
          helperText={shown(errors.totpCode) ?? 'Enter the code from your authenticator app.'}
          required
          inputProps={{ maxLength: TOTP_MAX_LENGTH, inputMode: 'numeric' }}
          inputRef={focusOnMount}
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
          {props.failureTitle && <AlertTitle>{props.failureTitle}</AlertTitle>}
          {errorMessageOf(failure)}
          {props.failureNote}
        </Alert>
      )}
    </>
  );
  return (
    <form noValidate onSubmit={onSubmit}>
      {props.children({ fields, pending: signIn.isPending })}
    </form>
  );
}
