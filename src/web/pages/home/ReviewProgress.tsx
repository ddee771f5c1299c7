import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { format } from 'date-fns';
import type { RegistrationOverview, StatusEvent } from '../../../shared/api/registration';
import { SupportContact } from '../../app/SupportContact';

const CHANGES_REQUESTED_TITLE = 'Your application needs changes';
const MAKE_CHANGES_LABEL = 'Make the changes';

/** What each status reads as on the applicant's timeline. */
const WHAT_HAPPENED: Record<StatusEvent['status'], string> = {
  submitted: 'You submitted your application',
  changes_requested: 'We asked you for changes',
  resubmitted: 'You sent the changes; we are reviewing your application again',
  approved: 'Your application was approved',
  rejected: 'Your application was not accepted',
};

/** The statuses the registration took, oldest first, each with its time (issue 17). */
export function StatusTimeline({ history }: { history: StatusEvent[] }) {
  if (history.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="application-history-title" sx={{ mt: 3 }}>
      <Typography id="application-history-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
        Your application
      </Typography>
      <Box component="ol" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
        {history.map((event, index) => (
          <Box
            component="li"
            key={`${event.at}-${index}`}
            sx={{ display: 'flex', gap: 2, py: 0.5, borderLeft: 2, borderColor: 'divider', pl: 2 }}
          >
            <Typography
              component="time"
              dateTime={event.at}
              color="textSecondary"
              sx={{ minWidth: '11rem' }}
            >
              {format(new Date(event.at), 'MMM d, yyyy, h:mm a')}
            </Typography>
            <Typography>{WHAT_HAPPENED[event.status]}</Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/**
 * Changes requested: each question staff asked about, by its prompt, with the reviewer's note,
 * the note on the whole application, and the way to the form in change mode.
 */
export function ChangesRequested({
  overview,
}: {
  overview: NonNullable<RegistrationOverview['registration']>;
}) {
  const request = overview.changeRequest;
  return (
    <Alert severity="warning">
      <AlertTitle>{CHANGES_REQUESTED_TITLE}</AlertTitle>
      <Typography>We reviewed your application and need these changes before we decide.</Typography>
      {request?.note ? (
        <Typography sx={{ my: 1, whiteSpace: 'pre-line', fontWeight: 500 }}>
          {request.note}
        </Typography>
      ) : null}
      {request && request.fields.length > 0 ? (
        <Box component="ul" aria-label="Requested changes" sx={{ my: 1, pl: 3 }}>
          {request.fields.map((field) => (
            <li key={field.path}>
              <Typography component="span" sx={{ fontWeight: 600 }}>
                {field.prompt}
              </Typography>
              {field.note ? (
                <Typography component="span" sx={{ whiteSpace: 'pre-line' }}>
                  {`: ${field.note}`}
                </Typography>
              ) : null}
            </li>
          ))}
        </Box>
      ) : null}
      <Button
        component={RouterLink}
        to={`/registration/${overview.formId}/changes`}
        variant="contained"
        color="warning"
        sx={{ mt: 1 }}
      >
        {MAKE_CHANGES_LABEL}
      </Button>
      <Typography sx={{ mt: 1.5 }}>
        Questions? Contact support at <SupportContact />.
      </Typography>
    </Alert>
  );
}
