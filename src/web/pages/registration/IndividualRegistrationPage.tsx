// Registers the precompiled validator of the individual form (generated at build time).
import individualForm from 'virtual:forms/individual';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { currentUserQueryKey } from '../../api/get-current-user';
import { submitIndividualRegistration } from '../../api/submit-individual-registration';
import { PageTitle } from '../../app/PageTitle';
import { MissingAnswers } from '../../forms/MissingAnswers';
import { RestoredDraftNotice } from '../../forms/RestoredDraftNotice';
import { SchemaForm } from '../../forms/SchemaForm';
import { registrationForm, useRegistrationSession } from './registrationSession';
import { RegistrationFailureAlert, useRegistrationSubmit } from './useRegistrationSubmit';

const FORM_ID = individualForm.id;
const form = registrationForm(individualForm);
const { schema, uiSchema, validator } = form;

/**
 * /clearing/registration/individual: the single-page individual form, drawn from
 * schemas/individual by SchemaForm and sent as the prompt+value multipart payload.
 */
export function IndividualRegistrationPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { failure, fieldErrors, submitted, onSubmit } = useRegistrationSubmit(
    form.compiled,
    submitIndividualRegistration,
  );
  // One session for the page: the form draws it, the notices and the leave warning read it.
  const { session, leaveWarning } = useRegistrationSession(form);

  async function goHome() {
    // Only now learn the new details: the guards then send the user home, not back here.
    await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
    await navigate('/home', { replace: true });
  }

  return (
    // Not MUI's 'lg' (1,200 px): the form is about 800 px wide (spec §9), inside the page's padding.
    <Container maxWidth={false} sx={{ maxWidth: 880, py: 5 }} disableGutters>
      <PageTitle title="Individual Registration" />
      <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 } }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
          <Typography variant="h1" gutterBottom>
            {schema.title}
          </Typography>
          <Link component={RouterLink} to="/registration?returned=1">
            Not an individual?
          </Link>
        </Box>
        {schema.description && (
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {schema.description}
          </Typography>
        )}
        <RestoredDraftNotice session={session} />
        <SchemaForm
          formId={FORM_ID}
          schema={schema}
          uiSchema={uiSchema}
          validator={validator}
          session={session}
          extraErrors={fieldErrors}
          onSubmit={onSubmit}
        >
          {(status) => (
            <Box sx={{ mt: 3 }}>
              <RegistrationFailureAlert
                failure={failure}
                onRetry={() => void session.submit(onSubmit)}
              />
              <Button
                type="submit"
                variant="contained"
                size="large"
                fullWidth
                disabled={!status.canSubmit}
                startIcon={
                  status.submitting ? <CircularProgress size={18} color="inherit" /> : undefined
                }
              >
                {status.submitting ? 'Submitting' : 'Submit Registration'}
              </Button>
              {!status.canSubmit && (
                <Box sx={{ mt: 1 }}>
                  <MissingAnswers session={session} />
                </Box>
              )}
            </Box>
          )}
        </SchemaForm>
      </Paper>
      <Dialog open={submitted} aria-labelledby="registration-submitted-title">
        <DialogTitle id="registration-submitted-title">Registration Submitted</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Thank you. Your registration has been received and is awaiting review. We will let you
            know once it has been reviewed.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          {/* Focus the way on, so Enter continues (MUI would focus the dialog's container). */}
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a dialog's first action, as ARIA's dialog pattern asks */}
          <Button variant="contained" autoFocus onClick={() => void goHome()}>
            Continue
          </Button>
        </DialogActions>
      </Dialog>
      {leaveWarning}
    </Container>
  );
}
