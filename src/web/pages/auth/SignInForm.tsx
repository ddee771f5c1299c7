import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useMutation } from '@tanstack/react-query';
import type { SigninRequest, SigninResult, User } from '../../../shared/api/auth';
import { emailError } from '../../../shared/rules/email';
import { PASSWORD_MESSAGES } from '../../../shared/rules/password';
import {
  RECOVERY_CODE_MAX_LENGTH,
  RECOVERY_CODE_REQUIRED_MESSAGE,
  TOTP_MAX_LENGTH,
  TOTP_REQUIRED_MESSAGE,
} from '../../../shared/rules/totp';
import { signInWithPasskey } from '../../api/account';
import { ApiError, errorMessageOf } from '../../api/client';
import { signIn } from '../../api/sign-in';
import { AuthTextField } from './AuthTextField';

const PASSKEY_NOT_USED_MESSAGE =
  'The passkey was not used. Please sign in again and use your passkey or a code.';

export type SecondFactorStep = Extract<SigninResult, { authStatus: 'TwoFactorRequired' }>;

/**
 * What the form's answers are checked by. By default a sign-in (POST auth/signin, then
 * auth/signin/passkey); the profile's confirmation runs the change it confirms instead, whose
 * server answers the same way (the password first, then the second factor it asks for).
 */
export interface SignInSteps<Done> {
  /** The password, with the code once asked: the second step to show, or done. */
  password(request: SigninRequest): Promise<{ next: SecondFactorStep } | { done: Done }>;
  /** A passkey answers the second step: the browser's ceremony and the call after it. */
  passkey(step: SecondFactorStep, request: SigninRequest): Promise<Done>;
}

const signInSteps: SignInSteps<User> = {
  async password(request) {
    const result = await signIn(request);
    return result.authStatus === 'TwoFactorRequired' ? { next: result } : { done: result.user };
  },
  async passkey(step) {
    if (!step.passkeyOptions) throw new Error(PASSKEY_NOT_USED_MESSAGE);
    const result = await signInWithPasskey({
      response: await passkeyAssertion(step.passkeyOptions),
    });
    if (result.authStatus !== 'AuthComplete') throw new Error(PASSKEY_NOT_USED_MESSAGE);
    return result.user;
  },
};

/**
 * The browser's passkey ceremony for `options`; a cancelled or failed one says so in words. The
 * WebAuthn code is loaded on use: no bundle carries it until a passkey answers.
 */
export async function passkeyAssertion(
  options: NonNullable<SecondFactorStep['passkeyOptions']>,
  notUsedMessage = PASSKEY_NOT_USED_MESSAGE,
) {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON: options }).catch(() => {
    throw new Error(notUsedMessage);
  });
}

/** What a sign-in form's place lays out: the page's card, or the dialog's content and actions. */
interface SignInFormParts {
  /** Email, password, the second step when asked (code, passkey), and the failure. */
  fields: ReactNode;
  /** A password sign-in is on its way: the submit button waits ('Signing In…'). */
  pending: boolean;
}

/**
 * The one sign-in form (the sign-in page's, and the dialog that asks again in place when a session
 * ended): email and password, then the second step the server asks for (a code from an
 * authenticator app, a passkey, or either; access §4, docs/decisions.md, Paths: 2FA), or, when
 * the server says unused ones remain, one of the account's recovery codes in place of the code
 * (issue 38 §4). Its place draws the parts (`children`) and the submit button, inside this form.
 *
 * With `knownEmail` (the dialog: the answers on the page are that account's) the email is shown
 * read-only and the password takes the focus; the code takes it when it is asked for.
 */
export function SignInForm<Done = User>(props: {
  knownEmail?: string | undefined;
  onSignedIn: (done: Done) => void;
  /** What checks the answers; a sign-in unless given. */
  steps?: SignInSteps<Done>;
  /** Above the server's message when a sign-in fails (the page's 'Login Failed'). */
  failureTitle?: string;
  /** Below it (the page's pointer to the exchange's own sign-in). */
  failureNote?: ReactNode;
  /** The form sits inside another in the React tree (a dialog): its submit stays here. */
  containSubmit?: boolean;
  children: (parts: SignInFormParts) => ReactNode;
}) {
  const { knownEmail, onSignedIn } = props;
  const steps = props.steps ?? (signInSteps as unknown as SignInSteps<Done>); // Done is User then
  const signIn = useMutation({ mutationFn: (request: SigninRequest) => steps.password(request) });
  const [email, setEmail] = useState(knownEmail ?? '');
  const [password, setPassword] = useState('');
  const [totpCode, setTotpCode] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');
  /** The recovery code's field is shown in place of the code's (or beside the passkey). */
  const [useRecovery, setUseRecovery] = useState(false);
  const [secondFactor, setSecondFactor] = useState<SecondFactorStep | null>(null);
  const [submitted, setSubmitted] = useState(false);
  // Servers that name no methods ask for a code, as the specification's step does.
  const totpAsked = secondFactor !== null && (secondFactor.methods ?? ['totp']).includes('totp');
  const recoveryOffered = !!secondFactor?.methods?.includes('recovery_code');
  const recoveryAsked = recoveryOffered && useRecovery;
  const codeAsked = totpAsked && !recoveryAsked;
  const passkeyAsked =
    secondFactor !== null &&
    (!!secondFactor.passkeyOptions || !!secondFactor.methods?.includes('passkey'));
  // The field to answer next takes the focus as it appears.
  const focusOnMount = useCallback((input: HTMLInputElement | null) => input?.focus(), []);
  const passkey = useMutation({
    mutationFn: async () => {
      if (!secondFactor) throw new Error(PASSKEY_NOT_USED_MESSAGE);
      return steps.passkey(secondFactor, { email: email.trim(), password });
    },
    onSuccess: (done) => onSignedIn(done),
    // The challenge is spent either way: back to the password, which asks anew.
    onError: () => setSecondFactor(null),
  });

  const failure = passkey.isError ? passkey.error : signIn.isError ? signIn.error : null;
  // A server that names the field at fault ('Password is wrong', a wrong code): said on it.
  const serverErrors = failure instanceof ApiError ? failure.errors : undefined;
  const errors = {
    email: emailError(email),
    password: password ? (serverErrors?.password ?? null) : PASSWORD_MESSAGES.signinRequired,
    totpCode:
      codeAsked && !totpCode.trim() ? TOTP_REQUIRED_MESSAGE : (serverErrors?.totpCode ?? null),
    recoveryCode:
      recoveryAsked && !recoveryCode.trim()
        ? RECOVERY_CODE_REQUIRED_MESSAGE
        : (serverErrors?.recoveryCode ?? null),
  };
  const shown = (message: string | null) => (submitted ? message : null);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (props.containSubmit) event.stopPropagation();
    setSubmitted(true);
    const missing = {
      email: emailError(email),
      password: !password,
      totpCode: codeAsked && !totpCode.trim(),
      recoveryCode: recoveryAsked && !recoveryCode.trim(),
    };
    if (missing.email || missing.password || missing.totpCode || missing.recoveryCode) return;
    if (secondFactor !== null && !codeAsked && !recoveryAsked) {
      passkey.mutate();
      return;
    }
    passkey.reset();
    signIn.mutate(
      {
        email: email.trim(),
        password,
        ...(codeAsked ? { totpCode: totpCode.trim() } : {}),
        ...(recoveryAsked ? { recoveryCode: recoveryCode.trim() } : {}),
      },
      {
        onSuccess: (result) => {
          if ('next' in result) {
            setSecondFactor(result.next);
            setUseRecovery(false);
            setSubmitted(false);
          } else {
            onSignedIn(result.done);
          }
        },
      },
    );
  }

  const fieldFailure =
    !!serverErrors?.password || !!serverErrors?.totpCode || !!serverErrors?.recoveryCode;
  /** Switches between the code (or the passkey) and a recovery code; the old failure goes. */
  function chooseRecovery(use: boolean) {
    setUseRecovery(use);
    setSubmitted(false);
    signIn.reset();
  }
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
      {recoveryAsked && (
        <AuthTextField
          label="Recovery code"
          name="recoveryCode"
          autoComplete="off"
          value={recoveryCode}
          onChange={(event) => setRecoveryCode(event.target.value)}
          error={shown(errors.recoveryCode) !== null}
          helperText={
            shown(errors.recoveryCode) ??
            'Enter one of the recovery codes you saved when you turned on two-factor authentication. Each works once.'
          }
          required
          inputProps={{
            maxLength: RECOVERY_CODE_MAX_LENGTH,
            autoCapitalize: 'off',
            autoCorrect: 'off',
            spellCheck: false,
          }}
          inputRef={focusOnMount}
        />
      )}
      {recoveryOffered && (
        <Button
          type="button"
          variant="text"
          size="small"
          sx={{ mt: 1 }}
          onClick={() => chooseRecovery(!useRecovery)}
        >
          {!useRecovery
            ? 'Use a recovery code instead'
            : totpAsked
              ? 'Use the code from your app instead'
              : 'Use your passkey instead'}
        </Button>
      )}
      {passkeyAsked && !(recoveryAsked && !totpAsked) && (
        <Button
          type="button"
          variant={codeAsked || recoveryAsked ? 'outlined' : 'contained'}
          fullWidth
          size="large"
          sx={{ mt: 2 }}
          disabled={passkey.isPending}
          onClick={() => passkey.mutate()}
        >
          {codeAsked || recoveryAsked ? 'Use a passkey instead' : 'Use your passkey'}
        </Button>
      )}
      {failure && !fieldFailure && (
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
