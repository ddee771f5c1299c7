import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TwoFactorEnrolment } from '../../../shared/api/auth';
import type { IdentityConfirmation, Profile } from '../../../shared/api/account';
import {
  addPasskey,
  passkeyCreationOptions,
  startTotpEnrolment,
  useConfirmTotp,
  useDisableTotp,
  useNewRecoveryCodes,
  useRemovePasskey,
  profileQueryKey,
} from '../../api/account';
import { errorMessageOf } from '../../api/client';
import { useQueryClient } from '@tanstack/react-query';
import { ConfirmIdentityDialog } from './ConfirmIdentityDialog';
import { formatMoment } from './formatMoment';
import { RecoveryCodes, RecoveryCodesShown } from './RecoveryCodes';

type Confirmation = {
  action: string;
  run: (proof: IdentityConfirmation) => Promise<unknown>;
} | null;

/**
 * Two-factor authentication: an authenticator app (TOTP) and passkeys (WebAuthn), either of which
 * the sign-in's second step accepts. Every change asks for the password again (ASVS 7.5.1) and,
 * once a second factor is on, a current one too (issue 27 §2), in one dialog. Ten recovery codes
 * come with the app, shown once; a new set can be asked for, and the count left is shown (issue 38
 * §4).
 */
export function TwoFactorSection({ profile }: { profile: Profile }) {
  const [confirmation, setConfirmation] = useState<Confirmation>(null);
  /** Recovery codes just made: shown until the user says they saved them, never again. */
  const [shownCodes, setShownCodes] = useState<string[] | null>(null);
  const newCodes = useNewRecoveryCodes();
  const secondFactorOn = profile.totpEnabled || profile.passkeys.length > 0;
  return (
    <Box component="section" aria-labelledby="two-factor-heading">
      <Typography variant="h2" id="two-factor-heading" gutterBottom>
        Two-factor authentication
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        After your password, the sign-in asks for a code from an authenticator app or for a passkey.
        A passkey cannot be handed to a look-alike website.
      </Typography>
      {shownCodes ? (
        <RecoveryCodesShown codes={shownCodes} onDone={() => setShownCodes(null)} />
      ) : null}
      <AuthenticatorApp
        enabled={profile.totpEnabled}
        confirm={setConfirmation}
        onCodes={setShownCodes}
      />
      <Passkeys passkeys={profile.passkeys} confirm={setConfirmation} />
      {secondFactorOn ? (
        <RecoveryCodes
          left={profile.recoveryCodesLeft ?? 0}
          onRenew={() =>
            setConfirmation({
              action: 'get new recovery codes (the ones you have now stop working)',
              run: async (proof) => {
                const { recoveryCodes } = await newCodes.mutateAsync(proof);
                setShownCodes(recoveryCodes);
              },
            })
          }
        />
      ) : null}
      <ConfirmIdentityDialog
        open={confirmation !== null}
        email={profile.email}
        action={confirmation?.action ?? ''}
        onClose={() => setConfirmation(null)}
        onConfirm={async (proof) => {
          await confirmation?.run(proof);
          setConfirmation(null);
        }}
      />
    </Box>
  );
}

function AuthenticatorApp(props: {
  enabled: boolean;
  confirm: (confirmation: Confirmation) => void;
  /** The recovery codes that came with the app, to show once. */
  onCodes: (codes: string[]) => void;
}) {
  const [enrolment, setEnrolment] = useState<(TwoFactorEnrolment & { qr: string }) | null>(null);
  const [code, setCode] = useState('');
  const confirmCode = useConfirmTotp();
  const disable = useDisableTotp();

  async function begin(proof: IdentityConfirmation) {
    const started = await startTotpEnrolment(proof);
    // The QR code is drawn here from the otpauth URL; the secret never leaves for a QR service.
    const { default: QRCode } = await import('qrcode');
    const svg = await QRCode.toString(started.otpauthUrl, { type: 'svg', margin: 1 });
    setEnrolment({ ...started, qr: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
    setCode('');
    confirmCode.reset();
  }

  function onConfirm(event: FormEvent) {
    event.preventDefault();
    confirmCode.mutate(code.trim(), {
      onSuccess: (state) => {
        setEnrolment(null);
        if (state.recoveryCodes) props.onCodes(state.recoveryCodes);
      },
    });
  }

  return (
    <Box sx={{ mb: 3 }}>
      <Typography variant="h3" sx={{ fontSize: '1.1rem', fontWeight: 600, mb: 1 }}>
        Authenticator app{' '}
        <Chip
          size="small"
          label={props.enabled ? 'On' : 'Off'}
          color={props.enabled ? 'success' : 'default'}
        />
      </Typography>
      {props.enabled ? (
        <Button
          variant="outlined"
          color="error"
          onClick={() =>
            props.confirm({
              action: 'turn off the authenticator app',
              run: (proof) => disable.mutateAsync(proof),
            })
          }
        >
          Turn off authenticator app
        </Button>
      ) : enrolment ? (
        <Box
          component="form"
          noValidate
          onSubmit={onConfirm}
          sx={{ display: 'grid', gap: 2, maxWidth: 420 }}
        >
          <Typography>
            Scan this code with your authenticator app, or type the key, then enter the 6-digit code
            it shows.
          </Typography>
          <Box
            component="img"
            src={enrolment.qr}
            alt="QR code for your authenticator app"
            sx={{ width: 180, height: 180 }}
          />
          {/* In groups of four to read and type (issue 26 §4); spaced by margins, not spaces, so a
              copied key is the key. */}
          <Typography
            sx={{ fontFamily: 'monospace', fontSize: '1.1rem', display: 'flex', flexWrap: 'wrap' }}
            aria-label="Setup key"
          >
            {(enrolment.secret.match(/.{1,4}/g) ?? []).map((group, index) => (
              <Box component="span" key={index} data-key-group sx={{ mr: 1.5 }}>
                {group}
              </Box>
            ))}
          </Typography>
          <TextField
            label="Code from the app"
            name="totpCode"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
            error={confirmCode.isError}
            helperText={confirmCode.isError ? errorMessageOf(confirmCode.error) : undefined}
          />
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button
              type="submit"
              variant="contained"
              disabled={confirmCode.isPending || !code.trim()}
            >
              Turn On
            </Button>
            <Button onClick={() => setEnrolment(null)}>Cancel</Button>
          </Box>
        </Box>
      ) : (
        <Button
          variant="outlined"
          onClick={() => props.confirm({ action: 'set up an authenticator app', run: begin })}
        >
          Set up authenticator app
        </Button>
      )}
    </Box>
  );
}

function Passkeys(props: {
  passkeys: Profile['passkeys'];
  confirm: (confirmation: Confirmation) => void;
}) {
  const queryClient = useQueryClient();
  const remove = useRemovePasskey();
  const [name, setName] = useState('');
  const [added, setAdded] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function create(proof: IdentityConfirmation) {
    const options = await passkeyCreationOptions(proof);
    setFailure(null);
    setAdded(null);
    try {
      // Loaded on use: WebAuthn code only for those who add a passkey.
      const { startRegistration } = await import('@simplewebauthn/browser');
      const response = await startRegistration({ optionsJSON: options });
      const passkey = await addPasskey({ name: name.trim() || 'Passkey', response });
      setAdded(passkey.name);
      setName('');
      await queryClient.invalidateQueries({ queryKey: profileQueryKey });
    } catch (error) {
      // The confirmation passed (the dialog closes); what failed is the browser's or the key's.
      setFailure(
        error instanceof Error && error.name === 'NotAllowedError'
          ? 'The passkey was not created (the request was cancelled or timed out). Please try again.'
          : errorMessageOf(error),
      );
    }
  }

  return (
    <Box>
      <Typography variant="h3" sx={{ fontSize: '1.1rem', fontWeight: 600, mb: 1 }}>
        Passkeys
      </Typography>
      {props.passkeys.length === 0 ? (
        <Typography color="text.secondary">No passkeys yet.</Typography>
      ) : (
        <List dense aria-label="Your passkeys" sx={{ maxWidth: 560 }}>
          {props.passkeys.map((passkey) => (
            <ListItem
              key={passkey.id}
              secondaryAction={
                <Button
                  color="error"
                  onClick={() =>
                    props.confirm({
                      action: `remove the passkey “${passkey.name}”`,
                      run: (proof) => remove.mutateAsync({ id: passkey.id, ...proof }),
                    })
                  }
                  aria-label={`Remove passkey ${passkey.name}`}
                >
                  Remove
                </Button>
              }
            >
              <ListItemText
                primary={passkey.name}
                secondary={`Added ${formatMoment(passkey.createdAt)} · ${
                  passkey.lastUsedAt
                    ? `last used ${formatMoment(passkey.lastUsedAt)}`
                    : 'not used yet'
                }`}
              />
            </ListItem>
          ))}
        </List>
      )}
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 1, maxWidth: 560 }}>
        <TextField
          label="Passkey name"
          name="passkeyName"
          size="small"
          value={name}
          onChange={(event) => setName(event.target.value)}
          helperText="For example, the device it lives on."
          slotProps={{ htmlInput: { maxLength: 64 } }}
        />
        <Button
          variant="outlined"
          sx={{ whiteSpace: 'nowrap', flexShrink: 0, mt: 0.25 }}
          onClick={() => props.confirm({ action: 'add a passkey', run: create })}
        >
          Add a passkey
        </Button>
      </Box>
      {added ? (
        <Alert severity="success" sx={{ mt: 2, maxWidth: 560 }}>
          Passkey “{added}” added. You can use it at your next sign-in.
        </Alert>
      ) : null}
      {failure ? (
        <Alert severity="error" sx={{ mt: 2, maxWidth: 560 }}>
          {failure}
        </Alert>
      ) : null}
    </Box>
  );
}
