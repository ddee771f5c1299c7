import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { SecondFactor } from '../../../shared/api/auth';
import type { IdentityConfirmation } from '../../../shared/api/account';
import { reauthPasskeyOptions } from '../../api/account';
import { ApiError } from '../../api/client';
import { passkeyAssertion, SignInForm, type SignInSteps } from '../auth/SignInForm';

export const CONFIRM_IDENTITY_TITLE = 'Confirm it’s you';
const PASSKEY_NOT_USED = 'The passkey was not used. Please try again, or use a code.';

/**
 * The second step a change asks for: its server answers the password alone with 403 naming the
 * account's factors (`errors.secondFactor`: `totp`, `passkey`, or both) when it has any.
 */
function secondFactorAsked(error: unknown): SecondFactor[] | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  const named = error.errors?.secondFactor?.split(' ') ?? [];
  const methods = named.filter(
    (m): m is SecondFactor => m === 'totp' || m === 'passkey' || m === 'recovery_code',
  );
  return methods.length > 0 ? methods : null;
}

/** A wrong current password is said on the dialog's one password field, whatever the call named it. */
function onPasswordField(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.errors?.currentPassword) return error;
  const { currentPassword, ...others } = error.errors;
  return new ApiError(error.status, {
    ...error.body,
    errors: { ...others, password: currentPassword },
  });
}

/**
 * Asks who is there before a sensitive change (ASVS 7.5.1; issue 27 §2), with the sign-in's own
 * form (SignInForm, as the expired-session dialog does): the account's email read-only, the
 * password, then, when the account has a second factor, a code from the authenticator app or a
 * passkey. `onConfirm` runs the change with what was given; its server decides whether a second
 * factor is needed, so the dialog asks for one only when the change does. A wrong password or
 * code is said on its field, anything else above the buttons; nothing typed is lost meanwhile.
 */
export function ConfirmIdentityDialog(props: {
  open: boolean;
  email: string;
  /** What the change does, as a phrase after "To …" ("turn off the authenticator app"). */
  action: string;
  /** The change never asks a second factor (ending sessions): the text does not announce one. */
  passwordOnly?: boolean;
  onConfirm: (proof: IdentityConfirmation) => Promise<unknown>;
  onClose: () => void;
}) {
  const { onConfirm } = props;
  const steps: SignInSteps<true> = {
    async password({ password, totpCode, recoveryCode }) {
      try {
        await onConfirm({
          password,
          ...(totpCode ? { totpCode } : {}),
          ...(recoveryCode ? { recoveryCode } : {}),
        });
        return { done: true };
      } catch (error) {
        const methods = secondFactorAsked(error);
        if (methods) return { next: { authStatus: 'TwoFactorRequired', methods } };
        throw onPasswordField(error);
      }
    },
    async passkey(_step, { password }) {
      const passkey = await passkeyAssertion(await reauthPasskeyOptions(), PASSKEY_NOT_USED);
      await onConfirm({ password, passkey }).catch((error: unknown) => {
        throw onPasswordField(error);
      });
      return true;
    },
  };
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      aria-labelledby="confirm-identity-title"
      aria-describedby="confirm-identity-text"
    >
      <SignInForm knownEmail={props.email} containSubmit steps={steps} onSignedIn={() => {}}>
        {({ fields, pending }) => (
          <>
            <DialogTitle id="confirm-identity-title">{CONFIRM_IDENTITY_TITLE}</DialogTitle>
            <DialogContent>
              <DialogContentText id="confirm-identity-text">
                To {props.action}, enter your password again.
                {props.passwordOnly
                  ? null
                  : ' With two-factor authentication on, a code from your authenticator app or your passkey is asked next.'}
              </DialogContentText>
              {fields}
            </DialogContent>
            <DialogActions>
              <Button onClick={props.onClose}>Cancel</Button>
              <Button type="submit" variant="contained" disabled={pending}>
                {pending ? 'Checking…' : 'Continue'}
              </Button>
            </DialogActions>
          </>
        )}
      </SignInForm>
    </Dialog>
  );
}
