import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { API_SCOPES, type ApiCredential, type ApiScope } from '../../../shared/api/apiCredentials';
import {
  useApiCredentials,
  useCreateApiCredential,
  useRevokeApiCredential,
} from '../../api/api-credentials';
import { ApiError, errorMessageOf } from '../../api/client';
import { useSideScroll } from '../../app/useSideScroll';
import { visuallyHidden } from '../../app/theme';
import { ConfirmIdentityDialog } from './ConfirmIdentityDialog';
import { ConfirmDangerDialog } from './ConfirmDangerDialog';
import { formatMoment } from './formatMoment';
import { SecretShownOnce } from './SecretShownOnce';

/** What each scope lets a partner's server do, as the checkbox says it (else its name). */
const SCOPE_LABELS: Partial<Record<string, string>> = {
  'applications:write': 'Fill in and submit applications (applications:write)',
  'registrations:read': 'Read the status of registrations (registrations:read)',
  'statements:read': 'Read the clearing statement (statements:read)',
  'webhooks:manage': 'Manage webhook endpoints and deliveries (webhooks:manage)',
};

export const SECRET_SHOWN_ONCE =
  'Copy this secret now and keep it safe: it is shown only this once. Your server sends it as Authorization: Bearer followed by the secret.';

/**
 * API credentials (issue 40 §4), for an organisation's Administrators: the organisation's
 * credentials with their scopes and last use; a new one made after the identity is confirmed
 * again (the password, and the second factor when the account has one), its secret shown once;
 * revoking one asks first. Anyone else (the server answers 403) sees nothing of it.
 */
export function ApiCredentialsSection({ email }: { email: string }) {
  const credentials = useApiCredentials();
  const create = useCreateApiCredential();
  const revoke = useRevokeApiCredential();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiScope[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiCredential | null>(null);
  const { ref, regionProps } = useSideScroll<HTMLDivElement>('API credentials');

  const failure = credentials.error;
  if (failure instanceof ApiError && (failure.status === 403 || failure.status === 404)) {
    return null;
  }
  const list = credentials.data?.credentials ?? [];
  const nameMissing = name.trim() === '';
  const toggle = (scope: ApiScope) =>
    setScopes((chosen) =>
      chosen.includes(scope) ? chosen.filter((s) => s !== scope) : [...chosen, scope],
    );

  return (
    <Box component="section" aria-labelledby="api-credentials-heading">
      <Typography variant="h2" id="api-credentials-heading" gutterBottom>
        API credentials
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 900, mb: 2 }}>
        Your organisation&apos;s servers can call the portal&apos;s API with a credential, within
        the scopes you give it. It acts as you, the Administrator who made it, and stops working
        when it is revoked or you are no longer an Administrator.
      </Typography>
      {failure ? (
        <Alert severity="error" sx={{ mb: 2, maxWidth: 900 }}>
          {errorMessageOf(failure)}
        </Alert>
      ) : null}
      {list.length > 0 ? (
        <Box ref={ref} {...regionProps} sx={{ maxWidth: 900, overflowX: 'auto', mb: 2 }}>
          <Table size="small" aria-labelledby="api-credentials-heading">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Scopes</TableCell>
                <TableCell>Made</TableCell>
                <TableCell>Last used</TableCell>
                <TableCell>
                  <Box component="span" sx={visuallyHidden}>
                    Action
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((credential) => (
                <TableRow key={credential.id}>
                  <TableCell>
                    {credential.name}
                    <Typography variant="body2" color="text.secondary">
                      {credential.secretStart}…
                    </Typography>
                  </TableCell>
                  <TableCell>{credential.scopes.join(', ')}</TableCell>
                  <TableCell>
                    {formatMoment(credential.createdAt)}
                    <Typography variant="body2" color="text.secondary">
                      by {credential.createdBy}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {credential.lastUsedAt ? formatMoment(credential.lastUsedAt) : 'Never'}
                  </TableCell>
                  <TableCell align="right">
                    {credential.revokedAt ? (
                      `Revoked ${formatMoment(credential.revokedAt)}`
                    ) : (
                      <Button
                        size="small"
                        color="error"
                        aria-label={`Revoke ${credential.name}`}
                        onClick={() => setRevoking(credential)}
                      >
                        Revoke
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      ) : null}

      {secret ? (
        <SecretShownOnce secret={secret.secret} onKept={() => setSecret(null)}>
          The credential {secret.name} is made. {SECRET_SHOWN_ONCE}
        </SecretShownOnce>
      ) : null}

      <Box
        component="form"
        aria-label="New API credential"
        sx={{ maxWidth: 600, display: 'grid', gap: 1 }}
        onSubmit={(event) => {
          event.preventDefault();
          if (!nameMissing && scopes.length > 0) setConfirming(true);
        }}
      >
        <TextField
          label="Name of the new credential"
          helperText="What it is for, so you can tell it apart (e.g. Back office)"
          value={name}
          onChange={(event) => setName(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 100 } }}
          size="small"
        />
        <FormGroup>
          <FormLabel component="legend">What it may do</FormLabel>
          {API_SCOPES.map((scope) => (
            <FormControlLabel
              key={scope}
              control={<Checkbox checked={scopes.includes(scope)} onChange={() => toggle(scope)} />}
              label={SCOPE_LABELS[scope] ?? scope}
            />
          ))}
        </FormGroup>
        <Box>
          <Button
            type="submit"
            variant="outlined"
            disabled={nameMissing || scopes.length === 0 || create.isPending}
          >
            Create credential
          </Button>
        </Box>
      </Box>

      <ConfirmIdentityDialog
        open={confirming}
        email={email}
        action="create an API credential"
        onClose={() => setConfirming(false)}
        onConfirm={async (proof) => {
          const created = await create.mutateAsync({ name: name.trim(), scopes, ...proof });
          setConfirming(false);
          setSecret({ name: created.credential.name, secret: created.secret });
          setName('');
          setScopes([]);
        }}
      />

      <ConfirmDangerDialog
        id="revoke-credential"
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? ''}?`}
        confirmLabel="Revoke"
        error={revoke.error}
        pending={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          if (!revoking) return;
          revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) });
        }}
      >
        Every program using it stops working at once. This cannot be undone: a new credential has a
        new secret.
      </ConfirmDangerDialog>
    </Box>
  );
}
