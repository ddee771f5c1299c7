import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../../shared/api/webhooks';
import { ApiError, errorMessageOf } from '../../api/client';
import {
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useResendWebhookDelivery,
  useRollWebhookSecret,
  useUpdateWebhookEndpoint,
  useWebhookDeliveries,
  useWebhookEndpoints,
} from '../../api/webhooks';
import { useSideScroll } from '../../app/useSideScroll';
import { visuallyHidden } from '../../app/theme';
import { ConfirmDangerDialog } from './ConfirmDangerDialog';
import { formatMoment } from './formatMoment';
import { SecretShownOnce } from './SecretShownOnce';

/** The last attempt's outcome, as a person reads it. */
function lastAnswer(delivery: WebhookDelivery): string {
  const last = delivery.attempts.at(-1);
  if (!last) return 'Not tried yet';
  if (last.error) return last.statusCode ? `${last.statusCode}: ${last.error}` : last.error;
  return `Answered ${last.statusCode}`;
}

const STATE_LABELS: Record<WebhookDelivery['state'], string> = {
  pending: 'Waiting to be tried again',
  delivered: 'Delivered',
  failed: 'Given up',
};

/**
 * Webhooks (issue 40 §5), for an organisation's Administrators: the endpoints events are posted
 * to (the signing secret shown once when one is added), paused, resumed or deleted (asked
 * first); the deliveries newest first with their last answer, each one resent on request.
 * Anyone else (the server answers 403) sees nothing of it.
 */
export function WebhooksSection() {
  const endpoints = useWebhookEndpoints();
  const deliveries = useWebhookDeliveries(endpoints.isSuccess);
  const create = useCreateWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const remove = useDeleteWebhookEndpoint();
  const resend = useResendWebhookDelivery();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const roll = useRollWebhookSecret();
  const [secret, setSecret] = useState<{
    url: string;
    secret: string;
    /** A replaced secret: until when the old one signs too (null: it ended at once). */
    previousUntil?: string | null;
  } | null>(null);
  const [rolling, setRolling] = useState<WebhookEndpoint | null>(null);
  const [overlapHours, setOverlapHours] = useState(24);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const { ref: endpointsRef, regionProps: endpointsRegion } =
    useSideScroll<HTMLDivElement>('Webhook endpoints');
  const { ref: deliveriesRef, regionProps: deliveriesRegion } =
    useSideScroll<HTMLDivElement>('Webhook deliveries');

  const failure = endpoints.error;
  // Drawn once the server has said whether this user may manage them: a non-Administrator
  // never sees a form flash up and vanish.
  if (endpoints.isPending) return null;
  if (failure instanceof ApiError && (failure.status === 403 || failure.status === 404)) {
    return null;
  }
  const list = endpoints.data?.data ?? [];
  const urlOf = (id: string) => list.find((endpoint) => endpoint.id === id)?.url ?? 'Deleted';
  const sent = deliveries.data?.pages.flatMap((page) => page.data) ?? [];
  const toggle = (type: WebhookEventType) =>
    setEvents((chosen) =>
      chosen.includes(type) ? chosen.filter((t) => t !== type) : [...chosen, type],
    );
  const actionError = update.error ?? resend.error;

  return (
    <Box component="section" aria-labelledby="webhooks-heading">
      <Typography variant="h2" id="webhooks-heading" gutterBottom>
        Webhooks
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 900, mb: 2 }}>
        The portal tells your organisation&apos;s servers when a registration is submitted, changes
        are requested, it is approved or rejected, or a statement is published. Each post is signed
        with the endpoint&apos;s secret in the {WEBHOOK_SIGNATURE_HEADER} header and tried again for
        72 hours until your server answers 2xx.
      </Typography>
      {failure ? (
        <Alert severity="error" sx={{ mb: 2, maxWidth: 900 }}>
          {errorMessageOf(failure)}
        </Alert>
      ) : null}
      {actionError ? (
        <Alert severity="error" sx={{ mb: 2, maxWidth: 900 }}>
          {errorMessageOf(actionError)}
        </Alert>
      ) : null}
      {list.length > 0 ? (
        <Box
          ref={endpointsRef}
          {...endpointsRegion}
          sx={{ maxWidth: 900, overflowX: 'auto', mb: 2 }}
        >
          <Table size="small" aria-labelledby="webhooks-heading">
            <TableHead>
              <TableRow>
                <TableCell>Endpoint</TableCell>
                <TableCell>Events</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>
                  <Box component="span" sx={visuallyHidden}>
                    Actions
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((endpoint) => (
                <TableRow key={endpoint.id}>
                  <TableCell sx={{ minWidth: 200, overflowWrap: 'anywhere' }}>
                    {endpoint.url}
                    <Typography variant="body2" color="text.secondary">
                      {endpoint.description || `Added ${formatMoment(endpoint.createdAt)}`}
                    </Typography>
                  </TableCell>
                  <TableCell>{endpoint.events.join(', ')}</TableCell>
                  <TableCell>{endpoint.enabled ? 'Active' : 'Paused'}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Button
                      size="small"
                      disabled={update.isPending}
                      aria-label={`${endpoint.enabled ? 'Pause' : 'Resume'} ${endpoint.url}`}
                      onClick={() => update.mutate({ id: endpoint.id, enabled: !endpoint.enabled })}
                    >
                      {endpoint.enabled ? 'Pause' : 'Resume'}
                    </Button>
                    <Button
                      size="small"
                      aria-label={`Replace the secret of ${endpoint.url}`}
                      onClick={() => {
                        roll.reset();
                        setOverlapHours(24);
                        setRolling(endpoint);
                      }}
                    >
                      Replace secret
                    </Button>
                    <Button
                      size="small"
                      color="error"
                      aria-label={`Delete ${endpoint.url}`}
                      onClick={() => setDeleting(endpoint)}
                    >
                      Delete
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      ) : null}

      {secret ? (
        <SecretShownOnce secret={secret.secret} onKept={() => setSecret(null)}>
          {secret.previousUntil === undefined
            ? `Events will be posted to ${secret.url}.`
            : secret.previousUntil
              ? `The secret of ${secret.url} is replaced; posts are signed with the old one too until ${formatMoment(secret.previousUntil)}.`
              : `The secret of ${secret.url} is replaced; the old one no longer signs.`}{' '}
          Copy its signing secret now: it is shown only this once. Your server checks each
          post&apos;s {WEBHOOK_SIGNATURE_HEADER} header with it.
        </SecretShownOnce>
      ) : null}

      <Box
        component="form"
        aria-label="New webhook endpoint"
        sx={{ maxWidth: 600, display: 'grid', gap: 1, mb: 3 }}
        onSubmit={(event) => {
          event.preventDefault();
          if (url.trim() === '' || events.length === 0) return;
          create.mutate(
            { url: url.trim(), events, ...(description.trim() ? { description } : {}) },
            {
              onSuccess: (created) => {
                setSecret({ url: created.url, secret: created.secret });
                setUrl('');
                setDescription('');
                setEvents([]);
              },
            },
          );
        }}
      >
        <TextField
          label="Endpoint URL"
          helperText="An https:// address of your server"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 2048, inputMode: 'url', spellCheck: false } }}
          size="small"
        />
        <TextField
          label="Description (optional)"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 200 } }}
          size="small"
        />
        <FormGroup>
          <FormLabel component="legend">Events to post</FormLabel>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <FormControlLabel
              key={type}
              control={<Checkbox checked={events.includes(type)} onChange={() => toggle(type)} />}
              label={type}
            />
          ))}
        </FormGroup>
        {create.error ? <Alert severity="error">{errorMessageOf(create.error)}</Alert> : null}
        <Box>
          <Button
            type="submit"
            variant="outlined"
            disabled={url.trim() === '' || events.length === 0 || create.isPending}
          >
            Add endpoint
          </Button>
        </Box>
      </Box>

      <Typography
        variant="h3"
        id="webhook-deliveries-heading"
        sx={{ fontSize: '1.1rem', fontWeight: 600, mb: 1 }}
      >
        Deliveries
      </Typography>
      {deliveries.error ? (
        <Alert severity="error" sx={{ mb: 2, maxWidth: 900 }}>
          {errorMessageOf(deliveries.error)}
        </Alert>
      ) : null}
      {sent.length === 0 ? (
        <Typography color="text.secondary">Nothing has been posted yet.</Typography>
      ) : (
        <Box
          ref={deliveriesRef}
          {...deliveriesRegion}
          sx={{ maxWidth: 900, overflowX: 'auto', mb: 1 }}
        >
          <Table size="small" aria-labelledby="webhook-deliveries-heading">
            <TableHead>
              <TableRow>
                <TableCell>Event</TableCell>
                <TableCell>State</TableCell>
                <TableCell>Last answer</TableCell>
                <TableCell>Queued</TableCell>
                <TableCell>
                  <Box component="span" sx={visuallyHidden}>
                    Action
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {sent.map((delivery) => (
                <TableRow key={delivery.id}>
                  <TableCell>
                    {delivery.eventType}
                    <Typography
                      variant="body2"
                      color="text.secondary"
                      sx={{ wordBreak: 'break-all' }}
                    >
                      {urlOf(delivery.endpointId)}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {STATE_LABELS[delivery.state]}
                    <Typography variant="body2" color="text.secondary">
                      {delivery.attempts.length} attempt{delivery.attempts.length === 1 ? '' : 's'}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-word' }}>{lastAnswer(delivery)}</TableCell>
                  <TableCell>{formatMoment(delivery.createdAt)}</TableCell>
                  <TableCell align="right">
                    <Button
                      size="small"
                      disabled={resend.isPending}
                      aria-label={`Resend ${delivery.eventType} of ${formatMoment(delivery.createdAt)}`}
                      onClick={() => resend.mutate(delivery.id)}
                    >
                      Resend
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      {deliveries.hasNextPage ? (
        <Button
          onClick={() => void deliveries.fetchNextPage()}
          disabled={deliveries.isFetchingNextPage}
        >
          Show older deliveries
        </Button>
      ) : null}

      <Dialog
        open={rolling !== null}
        onClose={() => setRolling(null)}
        aria-labelledby="roll-secret-title"
        aria-describedby="roll-secret-text"
      >
        <DialogTitle id="roll-secret-title">Replace the signing secret?</DialogTitle>
        <DialogContent>
          <DialogContentText id="roll-secret-text" sx={{ overflowWrap: 'anywhere', mb: 2 }}>
            Posts to {rolling?.url} are signed with a new secret, shown once. Keep the old one
            signing too while your servers switch, or end it at once if it leaked.
          </DialogContentText>
          <TextField
            select
            fullWidth
            size="small"
            label="The old secret signs too"
            value={overlapHours}
            onChange={(event) => setOverlapHours(Number(event.target.value))}
          >
            <MenuItem value={24}>For 24 hours</MenuItem>
            <MenuItem value={168}>For 7 days</MenuItem>
            <MenuItem value={0}>No longer: end it at once</MenuItem>
          </TextField>
          {roll.error ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {errorMessageOf(roll.error)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRolling(null)}>Cancel</Button>
          <Button
            variant="contained"
            disabled={roll.isPending}
            onClick={() => {
              if (!rolling) return;
              roll.mutate(
                { id: rolling.id, overlapHours },
                {
                  onSuccess: (rolled) => {
                    setRolling(null);
                    setSecret({
                      url: rolled.url,
                      secret: rolled.secret,
                      previousUntil: rolled.previousSecretExpiresAt,
                    });
                  },
                },
              );
            }}
          >
            Replace secret
          </Button>
        </DialogActions>
      </Dialog>

      <ConfirmDangerDialog
        id="delete-endpoint"
        open={deleting !== null}
        title="Delete this endpoint?"
        confirmLabel="Delete"
        error={remove.error}
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) });
        }}
      >
        Nothing more is posted to {deleting?.url}, and deliveries waiting for it are not sent. Pause
        it instead to keep them.
      </ConfirmDangerDialog>
    </Box>
  );
}
