// Registers the precompiled validator of the business form (generated at build time).
import businessForm from 'virtual:forms/business';
import { useSyncExternalStore } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
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
import Slide from '@mui/material/Slide';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import type { ErrorSchema } from '@rjsf/utils';
import { authCheckQueryOptions } from '../../api/get-auth-check';
import { currentUserQueryKey } from '../../api/get-current-user';
import { submitBusinessRegistration } from '../../api/submit-business-registration';
import { PageTitle } from '../../app/PageTitle';
import { clearDrafts } from '../../forms/draftStorage';
import { MissingAnswers } from '../../forms/MissingAnswers';
import { RestoredDraftNotice } from '../../forms/RestoredDraftNotice';
import { SchemaForm, type Answers } from '../../forms/SchemaForm';
import { SchemaReview } from '../../forms/SchemaReview';
import { errorEntries, FormSession, type ErrorEntry } from '../../forms/session';
import { afterSubmissionTarget } from './afterSubmission';
import { registrationForm, useRegistrationSession } from './registrationSession';
import type { RegistrationFailure } from './registrationFailure';
import { RegistrationFailureAlert, useRegistrationSubmit } from './useRegistrationSubmit';

const FORM_ID = businessForm.id;
const form = registrationForm(businessForm);
const { schema, uiSchema, validator } = form;
/** Spec §4: validation re-runs about 400 ms after the answers change. */
const VALIDATION_DELAY_MS = 400;
/** Spec §2.1: steps change with a 500 ms slide. */
const SLIDE_MS = 500;

/**
 * /clearing/registration/business: the three-step wizard (User Details, Business Details,
 * Confirm). Its steps, sections, button labels and signature prompts are the uiSchema's
 * `ui:steps`; one session carries the answers and files across the steps; Confirm is the
 * session's review, drawn from the same schema.
 */
export function BusinessRegistrationPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { failure, fieldErrors, submitted, onSubmit } = useRegistrationSubmit(
    form.compiled,
    submitBusinessRegistration,
  );
  const { session, leaveWarning } = useRegistrationSession(form, {
    validationDelayMs: VALIDATION_DELAY_MS,
  });
  const stepIndex = useSyncExternalStore(session.stepIndex.subscribe, session.stepIndex.get);
  const generation = useSyncExternalStore(session.generation.subscribe, session.generation.get);
  const steps = session.steps ?? [];
  const step = steps[stepIndex]!;

  async function done() {
    // Okay: drafts, the cached sign-in and the user are forgotten; home fetches them afresh.
    clearDrafts();
    queryClient.removeQueries({ queryKey: authCheckQueryOptions().queryKey });
    queryClient.removeQueries({ queryKey: currentUserQueryKey });
    // The whole path (the app's basename included) decides.
    const target = afterSubmissionTarget(window.location.pathname);
    if (target.kind === 'outside') window.location.assign(target.href);
    else await navigate(target.to, { replace: true });
  }

  return (
    <Container sx={{ maxWidth: 800, py: 5 }} disableGutters>
      <PageTitle title="Business Registration" />
      <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 }, overflow: 'hidden' }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
          <Typography variant="h1" gutterBottom>
            {schema.title}
          </Typography>
          <Link component={RouterLink} to="/registration?returned=1">
            Not a business?
          </Link>
        </Box>
        <Stepper activeStep={stepIndex} sx={{ my: 3 }} aria-label="Registration steps">
          {steps.map((each, index) => (
            <Step key={each.id} completed={index < stepIndex}>
              <StepLabel>{each.title}</StepLabel>
            </Step>
          ))}
        </Stepper>
        <RestoredDraftNotice session={session} />
        {step.signaturePrompt && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {step.signaturePrompt}
          </Alert>
        )}
        <Slide key={`${generation}-${stepIndex}`} in appear direction="left" timeout={SLIDE_MS}>
          <Box>
            <Typography component="h2" variant="h5" sx={{ mb: 1 }}>
              {step.title}
            </Typography>
            {step.description && (
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                {step.description}
              </Typography>
            )}
            {step.review ? (
              <ConfirmStep
                session={session}
                failure={failure}
                fieldErrors={fieldErrors}
                onSubmit={() => void session.submit(onSubmit)}
              />
            ) : (
              <>
                <ErrorSummary session={session} />
                <SchemaForm
                  formId={FORM_ID}
                  schema={schema}
                  uiSchema={uiSchema}
                  validator={validator}
                  session={session}
                  extraErrors={fieldErrors}
                  onSubmit={onSubmit}
                >
                  <WizardButtons session={session} />
                </SchemaForm>
              </>
            )}
          </Box>
        </Slide>
      </Paper>
      <Dialog open={submitted} aria-labelledby="registration-submitted-title">
        <DialogTitle id="registration-submitted-title">Submission Successful</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Your submission has been received. You&apos;ll hear back from the provider with next
            steps.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={() => void done()}>
            Okay
          </Button>
        </DialogActions>
      </Dialog>
      {leaveWarning}
    </Container>
  );
}

/** Reset Form, Back and the step's next button (a submit button: Enter in a field moves on too). */
function WizardButtons({
  session,
  onSubmit,
}: {
  session: FormSession;
  /** On the review step: submits (there is no rjsf form to submit). */
  onSubmit?: () => void;
}) {
  const status = useSyncExternalStore(session.status.subscribe, session.status.get);
  const stepIndex = useSyncExternalStore(session.stepIndex.subscribe, session.stepIndex.get);
  const step = session.steps?.[stepIndex];
  return (
    <Box sx={{ mt: 3 }}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <Button
          type="button"
          variant="text"
          color="inherit"
          disabled={status.submitting}
          onClick={() => session.reset()}
        >
          Reset Form
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button
          type="button"
          variant="outlined"
          disabled={stepIndex === 0 || status.submitting}
          onClick={() => session.back()}
        >
          Back
        </Button>
        <Button
          type={onSubmit ? 'button' : 'submit'}
          onClick={onSubmit}
          variant="contained"
          disabled={!status.canSubmit}
          startIcon={status.submitting ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          {status.submitting ? 'Submitting' : step?.next}
        </Button>
      </Box>
      {!status.canSubmit && !onSubmit && (
        <Box sx={{ mt: 1, display: 'flex', justifyContent: 'flex-end' }}>
          <MissingAnswers session={session} />
        </Box>
      )}
    </Box>
  );
}

/** The errors the step's fields show, each a link to its field (spec §8, business step). */
function ErrorSummary({ session }: { session: FormSession }) {
  const shown = useSyncExternalStore(session.shownErrors.subscribe, session.shownErrors.get);
  const entries = shown ? errorEntries(shown) : [];
  if (entries.length === 0) return null;
  return (
    <Alert severity="error" sx={{ mb: 2 }} aria-labelledby="error-summary-title">
      <AlertTitle id="error-summary-title">Please correct the following errors:</AlertTitle>
      <ErrorLinks entries={entries} />
    </Alert>
  );
}

function ErrorLinks({ entries }: { entries: ErrorEntry[] }) {
  return (
    <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
      {entries.map((entry, index) => (
        <li key={`${entry.id}-${index}`}>
          <Link
            href={`#${entry.id}`}
            color="inherit"
            onClick={(event) => {
              event.preventDefault();
              focusField(entry.id);
            }}
          >
            {entry.message}
          </Link>
        </li>
      ))}
    </Box>
  );
}

/** Focuses a field's input (an upload's choose button), scrolling it into view. */
function focusField(id: string) {
  const element =
    document.getElementById(`${id}-choose`) ??
    document.getElementById(id) ??
    document.querySelector<HTMLElement>(`[id^="${id}"]`);
  if (!element) return;
  const target = element.matches('input, select, textarea, button, [tabindex]')
    ? element
    : (element.querySelector<HTMLElement>('input, select, textarea, button, [tabindex]') ??
      element);
  target.focus();
  target.scrollIntoView?.({ block: 'center' });
}

/**
 * Confirm: the review, the §8 alert listing every message (the form's own, and those the server
 * gave for answers it refused: a PDF with scripts), Back, Reset and Submit.
 */
function ConfirmStep({
  session,
  failure,
  fieldErrors,
  onSubmit,
}: {
  session: FormSession;
  failure: RegistrationFailure | null;
  fieldErrors: ErrorSchema<Answers> | undefined;
  onSubmit: () => void;
}) {
  const own = useSyncExternalStore(session.stepErrors.subscribe, session.stepErrors.get);
  const entries = [...own, ...(fieldErrors ? errorEntries(fieldErrors) : [])];
  return (
    <Box>
      {entries.length > 0 && (
        <Alert severity="error" sx={{ mb: 2 }}>
          <AlertTitle>
            There are errors in the form. Please ensure all fields are completed correctly.
          </AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {entries.map((entry, index) => (
              <li key={`${entry.id}-${index}`}>{entry.message}</li>
            ))}
          </Box>
        </Alert>
      )}
      <SchemaReview
        session={session}
        onEdit={(index) => {
          session.goTo(index);
          window.scrollTo?.({ top: 0 });
        }}
      />
      <Box sx={{ mt: 3 }}>
        <RegistrationFailureAlert failure={failure} onRetry={onSubmit} />
      </Box>
      <WizardButtons session={session} onSubmit={onSubmit} />
    </Box>
  );
}
