import { use, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { PageTitle } from '../../app/PageTitle';
import { Loading } from '../../app/guards';
import { useApplication, type Application } from '../../api/applications';
import { errorMessageOf } from '../../api/client';
import { authCheckQueryOptions } from '../../api/get-auth-check';
import { currentUserQueryKey } from '../../api/get-current-user';
import { submitRegistration } from '../../api/submit-registration';
import { clearDrafts } from '../../forms/draftStorage';
import { FormWizard } from '../../forms/FormWizard';
import { registrationKind, type RegistrationKind } from '../../forms/registrationForms';
import { afterSubmissionTarget } from './afterSubmission';
import { ChangesRequestedIntro } from './ChangesRequestedIntro';
import {
  type ChangesStart,
  loadRegistration,
  type RegistrationForm,
  useRegistrationSession,
} from './registrationSession';
import { RegistrationFailureAlert, useRegistrationSubmit } from './useRegistrationSubmit';
import { NotFoundPage } from '../errors/NotFoundPage';

/** What differs between the registrations a page serves: the rest is the form's files. */
interface Registration {
  form: RegistrationForm;
  /** The document title ('Individual Registration'). */
  pageTitle: string;
  /** The link back to the account-type choice ('Not an individual?'); none in change mode. */
  otherChoice?: string;
  /** Change mode: the submitted registration reopened for the changes staff asked for. */
  changes?: ChangesStart;
  /** The application as the page that draws this one loaded it for this visit (change mode). */
  application?: Application | null;
  send: (payload: FormData) => Promise<unknown>;
  /** Wait this long after a change before validating again (business spec §4: 400 ms). */
  validationDelayMs?: number | undefined;
  /** The confirmation shown after a successful submission, and where its button leads. */
  submitted: { title: string; text: string; button: string; onDone: () => Promise<void> };
}

/**
 * /clearing/registration/<form-id>: every registration form of the catalog (a folder whose schema
 * declares `x-registration`), its page title, link back to the choice and confirmation read from
 * the schema. An id no registration form has gets the not-found page.
 */
export function RegistrationFormPage() {
  const { formId = '' } = useParams();
  const kind = registrationKind(formId);
  if (!kind) return <NotFoundPage />;
  // A page per form: moving to another form's address starts that form's page afresh.
  return <KnownRegistration key={kind.id} kind={kind} />;
}

function KnownRegistration({ kind }: { kind: RegistrationKind }) {
  const form = use(loadRegistration(kind.id));
  const onDone = useAfterSubmission(kind.submitted.then);
  if (!form) return <UnavailableForm title={kind.page.title} />;
  return (
    <RegistrationPage
      registration={{
        form,
        pageTitle: kind.page.title,
        otherChoice: kind.page.otherChoice,
        send: (payload) => submitRegistration(kind.id, payload),
        validationDelayMs: kind.page.validationDelayMs,
        submitted: {
          title: kind.submitted.title,
          text: kind.submitted.text,
          button: kind.submitted.button,
          onDone,
        },
      }}
    />
  );
}

/** A registration form whose files do not load (a broken folder): said plainly, nothing else. */
export function UnavailableForm({ title }: { title: string }) {
  return (
    <Container maxWidth="md" sx={{ py: 5 }}>
      <PageTitle title={title} />
      <Alert severity="error">
        <AlertTitle>This form is not available</AlertTitle>
        {title} cannot be filled in right now. Please try again later, or choose{' '}
        <Link component={RouterLink} to="/registration?returned=1">
          another kind of registration
        </Link>
        .
      </Alert>
    </Container>
  );
}

/** What the confirmation's button does (`x-registration.submitted.then`). */
function useAfterSubmission(then: RegistrationKind['submitted']['then']): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  if (then === 'home') {
    return async () => {
      // Only now learn the new details: the guards then send the user home, not back here.
      await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
      await navigate('/home', { replace: true });
    };
  }
  return async () => {
    // Drafts, the cached sign-in and the user are forgotten; home fetches them afresh.
    clearDrafts();
    queryClient.removeQueries({ queryKey: authCheckQueryOptions().queryKey });
    queryClient.removeQueries({ queryKey: currentUserQueryKey });
    // The whole path (the app's basename included) decides.
    const target = afterSubmissionTarget(window.location.pathname);
    if (target.kind === 'outside') window.location.assign(target.href);
    else await navigate(target.to, { replace: true });
  };
}

/**
 * A registration: the form's title, its steps as its uiSchema names them (FormWizard: the
 * questions with their sections' progress, the review, Submit), the confirmation after a
 * successful submission, and the warning before leaving with answers a draft cannot keep. Every
 * registration form is this page, each with its own form.
 */
export function RegistrationPage({ registration }: { registration: Registration }) {
  const { form } = registration;
  // The application as the server holds it first: the form opens on it, where it was left
  // (asked here unless the page drawing this one already has it for this visit).
  const loaded = registration.application;
  const application = useApplication(form.formId, loaded === undefined);
  const [offline, setOffline] = useState(false);
  if (loaded !== undefined || application.isSuccess || offline) {
    return (
      <OpenRegistration
        registration={registration}
        application={loaded ?? (application.isSuccess ? application.data : null)}
      />
    );
  }
  return (
    <Container maxWidth={false} sx={{ maxWidth: 1160, py: 5 }} disableGutters>
      <PageTitle title={registration.pageTitle} />
      {application.isError ? (
        <Alert
          severity="error"
          action={
            <Box sx={{ display: 'flex', gap: 1 }}>
              <Button color="inherit" size="small" onClick={() => void application.refetch()}>
                Try again
              </Button>
              <Button color="inherit" size="small" onClick={() => setOffline(true)}>
                Continue on this device
              </Button>
            </Box>
          }
        >
          <AlertTitle>Your saved application could not be loaded</AlertTitle>
          {errorMessageOf(application.error)}
        </Alert>
      ) : (
        <Loading />
      )}
    </Container>
  );
}

/** The page once the application is loaded (or, offline, without it). */
function OpenRegistration({
  registration,
  application,
}: {
  registration: Registration;
  application: Application | null;
}) {
  const { form, submitted: confirmation } = registration;
  const { failure, fieldErrors, submitted, onSubmit } = useRegistrationSubmit(
    form.compiled,
    registration.send,
  );
  // One session for the page: the steps, the dialog, the review and the notices are its views.
  const { session, saver, leaveWarning } = useRegistrationSession(form, {
    validationDelayMs: registration.validationDelayMs,
    application,
    changes: registration.changes,
  });

  return (
    // The questions are about 800 px wide (spec §9), the sections' progress beside them.
    <Container maxWidth={false} sx={{ maxWidth: 1160, py: 5 }} disableGutters>
      <PageTitle title={registration.pageTitle} />
      {/* Clipped, not hidden: the slide stays inside, and the progress column can stick. */}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3, md: 5 }, overflow: 'clip' }}>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            columnGap: 2,
            justifyContent: 'space-between',
            alignItems: 'baseline',
          }}
        >
          <Typography variant="h1" gutterBottom>
            {form.compiled.schema.title}
          </Typography>
          {registration.otherChoice ? (
            <Link component={RouterLink} to="/registration?returned=1">
              {registration.otherChoice}
            </Link>
          ) : null}
        </Box>
        {registration.changes ? <ChangesRequestedIntro session={session} /> : null}
        <FormWizard
          session={session}
          saver={saver}
          onSubmit={onSubmit}
          fieldErrors={fieldErrors}
          failureAlert={
            <RegistrationFailureAlert
              failure={failure}
              onRetry={() => void session.submit(onSubmit)}
            />
          }
        />
      </Paper>
      <Dialog open={submitted} aria-labelledby="registration-submitted-title">
        <DialogTitle id="registration-submitted-title">{confirmation.title}</DialogTitle>
        <DialogContent>
          <DialogContentText>{confirmation.text}</DialogContentText>
        </DialogContent>
        <DialogActions>
          {/* Focus the way on, so Enter continues (MUI would focus the dialog's container). */}
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a dialog's first action, as ARIA's dialog pattern asks */}
          <Button variant="contained" autoFocus onClick={() => void confirmation.onDone()}>
            {confirmation.button}
          </Button>
        </DialogActions>
      </Dialog>
      {leaveWarning}
    </Container>
  );
}
